/**
 * V8 settings applied by main.ts before anything else loads (decision 0140). Prisma 7's query
 * compiler is a 3.4 MB WebAssembly module: V8 compiles it with both tiers by default and holds
 * about 55 MiB of optimized machine code for it. Prisma caches its query plans, so the compiler
 * runs rarely after the first requests: the baseline tier (Liftoff) alone is enough and keeps
 * that memory. The embedded database (PGlite) is WebAssembly too and runs every query, so it
 * keeps both tiers: the setting applies only with an external PostgreSQL (DATABASE_URL), unless
 * WASM_LIFTOFF_ONLY says otherwise. The value is checked again by loadConfig.
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

/** Whether the WebAssembly baseline compiler alone is used: WASM_LIFTOFF_ONLY, or by default with DATABASE_URL. */
function wasmLiftoffOnly(env: NodeJS.ProcessEnv): boolean {
  const flag = env.WASM_LIFTOFF_ONLY?.trim().toLowerCase();
  if (flag === 'true' || flag === '1' || flag === 'yes') return true;
  if (flag === 'false' || flag === '0' || flag === 'no') return false;
  return Boolean(env.DATABASE_URL);
}

/** Sets the V8 flags the environment asks for; must run before any WebAssembly is compiled. */
export function applyRuntimeFlags(env: NodeJS.ProcessEnv = process.env): void {
  if (wasmLiftoffOnly(env)) setFlagsFromString('--liftoff-only');
  // Unset or 0: V8's own factor (25 cut peak memory by a quarter and reads by a third: decision 0151).
  // Out of range or not a number: loadConfig rejects it with a clear message; nothing set here.
  const growing = Number(env.V8_HEAP_GROWING_PERCENT ?? 0);
  if (Number.isInteger(growing) && growing > 0 && growing <= 300)
    setFlagsFromString(`--heap-growing-percent=${growing}`);
}
