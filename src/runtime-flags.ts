/**
 * V8 settings applied by main.ts before anything else loads.
 *
 * V8 "pretenures" an allocation site whose objects mostly survived their first scavenges: its
 * later objects are allocated straight in the old generation. While the app is built at start
 * nearly everything survives (modules, routes, the schema), so sites that the request path shares
 * with start-up were tenured; under load their short-lived objects then died in the old generation
 * and grew it between full collections. Off by default (V8_ALLOCATION_SITE_PRETENURING=true puts
 * it back): 40–70 MiB less peak memory under the bench's load, CPU per request unchanged (decision 0163).
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

/** A boolean setting as loadConfig reads it (true/false, 1/0, yes/no); anything else: `fallback`. */
function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === 'true' || value === '1' || value === 'yes') return true;
  if (value === 'false' || value === '0' || value === 'no') return false;
  return fallback;
}

/** Sets the V8 flags the environment asks for. */
export function applyRuntimeFlags(env: NodeJS.ProcessEnv = process.env): void {
  if (!flag(env.V8_ALLOCATION_SITE_PRETENURING, false)) setFlagsFromString('--no-allocation-site-pretenuring');
  // Unset or 0: V8's own factor (25 cut peak memory by a quarter and reads by a third: decision 0151).
  // Out of range or not a number: loadConfig rejects it with a clear message; nothing set here.
  const growing = Number(env.V8_HEAP_GROWING_PERCENT ?? 0);
  if (Number.isInteger(growing) && growing > 0 && growing <= 300)
    setFlagsFromString(`--heap-growing-percent=${growing}`);
}
