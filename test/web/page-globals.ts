/** What web/src/api.ts reads from the page when it loads (its origin and storage), for render tests in Node. */
Object.assign(globalThis, {
  location: { origin: 'http://127.0.0.1' },
  localStorage: { getItem: () => null, setItem: () => undefined, removeItem: () => undefined },
});
