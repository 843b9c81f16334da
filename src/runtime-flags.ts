/**
 * V8 settings applied by main.ts before anything else loads (decision 0140). Prisma 7's query
 * compiler is a 3.4 MB WebAssembly module: V8 compiles it with both tiers by default and holds
 * about 55 MiB of optimized machine code for it. Prisma caches its query plans, so the compiler
 * runs rarely after the first requests: the baseline tier (Liftoff) alone is enough and keeps
 * that memory. The embedded database (PGlite) is WebAssembly too and runs every query, so it
 * keeps both tiers: the setting applies only with an external PostgreSQL (DATABASE_URL), unless
 * WASM_LIFTOFF_ONLY says otherwise. The value is checked again by loadConfig.
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
  const semi = Number(env.V8_MAX_SEMI_SPACE_MB ?? 0);
  if (semi > 0) setFlagsFromString(`--max-semi-space-size=${semi}`);
}
