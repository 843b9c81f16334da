/**
 * Waits until a server's advice tables are in memory as the default start has them (the three
 * five-dice presets and Farkle), by asking for advice from each until it answers 200: peak RSS
 * under load is then measured with the tables loaded (issue 29 item 3). A request makes a
 * deferred warm-up table wanted now (decision 0141), so this also works from an empty cache.
 */
import { performance } from 'node:perf_hooks';

const REQUESTS: Array<[string, string, object]> = [
  ...['penta', 'simple', 'bonus'].map((ruleSet): [string, string, object] => [
    ruleSet,
    '/v1/advice/five-dice',
    { ruleSet, rollsLeft: 3 },
  ]),
  ['farkle', '/v1/advice/farkle', { banked: 0, turnPoints: 0, dice: [1, 5, 2, 2, 3, 6] }],
];

/** Milliseconds until every table answered, or throws after `timeoutMs`. */
export async function waitForAdviceTables(port: number, timeoutMs = 300_000): Promise<number> {
  const t0 = performance.now();
  const pending = new Map(REQUESTS.map((r) => [r[0], r]));
  while (pending.size > 0) {
    if (performance.now() - t0 > timeoutMs)
      throw new Error(`advice tables not ready after ${timeoutMs} ms: ${[...pending.keys()].join(', ')}`);
    for (const [name, path, body] of [...pending.values()]) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).catch(() => null);
      await res?.arrayBuffer();
      if (res?.status === 200) pending.delete(name);
      else if (res && res.status !== 503) throw new Error(`advice ${name}: HTTP ${res.status}`);
    }
    if (pending.size > 0) await new Promise((r) => setTimeout(r, 500));
  }
  return performance.now() - t0;
}
