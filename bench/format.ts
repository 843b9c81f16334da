/** The bench's progress log (stderr) and its number formats ("–" for a figure not measured). */
export const log = (line: string) =>
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
export const f0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
export const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '–');
export const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '–');
export const f3 = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : '–');
