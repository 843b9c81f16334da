/**
 * V8 settings applied by main.ts before anything else loads.
 *
 * Under load V8 lets the old generation grow to several times what survived its last full
 * collection before it collects again (a dynamic factor up to 4): a server with ≈ 100 MiB live
 * grew to 320 MiB of old space, most of it garbage, in the bench. V8_HEAP_GROWING_PERCENT fixes
 * that factor, an operator's choice of memory over CPU (decision 0151; off by default).
 *
 * Only flags V8 reads after start-up belong here. The young generation's size is fixed when the
 * heap is set up, before any script runs: `--max-semi-space-size` set from here is ignored (V8's
 * new space stayed 32 MiB), so an operator passes it to node itself (NODE_OPTIONS, decision 0158).
 */
import { setFlagsFromString } from 'node:v8';

/** Sets the V8 flags the environment asks for. */
export function applyRuntimeFlags(env: NodeJS.ProcessEnv = process.env): void {
  // Unset or 0: V8's own factor (25 cut peak memory by a quarter and reads by a third: decision 0151).
  // Out of range or not a number: loadConfig rejects it with a clear message; nothing set here.
  const growing = Number(env.V8_HEAP_GROWING_PERCENT ?? 0);
  if (Number.isInteger(growing) && growing > 0 && growing <= 300)
    setFlagsFromString(`--heap-growing-percent=${growing}`);
}
