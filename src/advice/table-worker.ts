/**
 * The advice tables' worker thread (node:worker_threads). It does every heavy step off the
 * event loop: reading and checking a cached five-dice or two-player Farkle table, or solving it
 * (seconds of CPU) and writing it to the cache (temp file, then rename, so a crash never leaves
 * half a table); and solving solo Farkle (kept in memory only). The solved arrays go back to the
 * service as transferred buffers (no copy).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import {
  deserializeFarkleTwoPlayer,
  deserializeSolution,
  serializeFarkleTwoPlayer,
  serializeSolution,
  solveFarkle,
  solveFarkleTwoPlayer,
  solveFiveDice,
  withBonusChance,
  type FarkleSolution,
  type FarkleTwoPlayerSolution,
  type FiveDiceSolution,
} from '@fairdice/core/rules/advice';
import type { FiveDiceOptions } from '@fairdice/core/rules/five-dice';
import type { FarkleOptions } from '@fairdice/core/rules/farkle';

export type TableJob = (
  | {
      id: number;
      kind: 'five-dice';
      options: FiveDiceOptions;
      file: string | null;
      /** Also build the upper-bonus chance table (the presets only: decision 0148). */
      bonusChance?: boolean;
    }
  | { id: number; kind: 'farkle-2p'; options: FarkleOptions; file: string | null }
  | { id: number; kind: 'farkle'; options: FarkleOptions }
) & {
  /** The worker thread's nice value for this job. */
  nice?: number;
};

/** A table cached on disk: read back, or solved and written. */
interface CachedResult {
  id: number;
  ok: true;
  /** disk: read from the cache; solved: computed here (and written unless writeError). */
  source: 'disk' | 'solved';
  /** Why the cached file was not used (absent, corrupt, other options), when solved. */
  cacheMiss?: string;
  writeError?: string;
  bytes: number;
  ms: number;
}

export type TableJobResult =
  | (CachedResult & { kind: 'farkle-2p'; solution: FarkleTwoPlayerSolution })
  | {
      id: number;
      ok: true;
      kind: 'five-dice';
      solution: FiveDiceSolution;
      /** disk: read from the cache; solved: computed here (and written unless writeError). */
      source: 'disk' | 'solved';
      /** Why the cached file was not used (absent, corrupt, other options), when solved. */
      cacheMiss?: string;
      writeError?: string;
      bytes: number;
      ms: number;
    }
  | { id: number; ok: true; kind: 'farkle'; solution: FarkleSolution; ms: number }
  | { id: number; ok: false; error: string };

/** How a cached kind of table is solved, written and read back. */
interface CachedKind<S> {
  solve(options: FarkleOptions | FiveDiceOptions, job: { bonusChance?: boolean }): S;
  serialize(solution: S): Uint8Array;
  deserialize(
    bytes: Uint8Array,
    options: FarkleOptions | FiveDiceOptions,
  ): { ok: true; solution: S } | { ok: false; reason: string };
}

const FIVE_DICE: CachedKind<FiveDiceSolution> = {
  solve: (options, job) => {
    const solved = solveFiveDice(options as FiveDiceOptions);
    return job.bonusChance === true ? withBonusChance(solved) : solved;
  },
  serialize: serializeSolution,
  deserialize: (bytes, options) => deserializeSolution(bytes, options as FiveDiceOptions),
};
const FARKLE_TWO_PLAYER: CachedKind<FarkleTwoPlayerSolution> = {
  solve: (options) => solveFarkleTwoPlayer(options as FarkleOptions),
  serialize: serializeFarkleTwoPlayer,
  deserialize: (bytes, options) => deserializeFarkleTwoPlayer(bytes, options as FarkleOptions),
};

/** The cached file if it checks, else the table solved and written (temp file, then rename). */
function cached<S>(
  job: { id: number; options: FarkleOptions | FiveDiceOptions; file: string | null; bonusChance?: boolean },
  kind: CachedKind<S>,
): CachedResult & { solution: S } {
  const started = performance.now();
  let cacheMiss: string | undefined;
  if (job.file) {
    try {
      const bytes = readFileSync(job.file);
      const read = kind.deserialize(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), job.options);
      if (read.ok)
        return {
          id: job.id,
          ok: true,
          solution: read.solution,
          source: 'disk',
          bytes: bytes.byteLength,
          ms: performance.now() - started,
        };
      cacheMiss = read.reason;
    } catch (error) {
      cacheMiss = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not cached' : String(error);
    }
  }
  const solution = kind.solve(job.options, job);
  const bytes = kind.serialize(solution);
  let writeError: string | undefined;
  if (job.file) {
    const tmp = `${job.file}.${process.pid}.${job.id}.tmp`;
    try {
      mkdirSync(dirname(job.file), { recursive: true });
      writeFileSync(tmp, bytes);
      renameSync(tmp, job.file);
    } catch (error) {
      writeError = String(error);
      rmSync(tmp, { force: true });
    }
  }
  return {
    id: job.id,
    ok: true,
    solution,
    source: 'solved',
    cacheMiss,
    writeError,
    bytes: bytes.byteLength,
    ms: performance.now() - started,
  };
}

function run(job: TableJob): TableJobResult {
  try {
    if (job.kind === 'five-dice') return { ...cached(job, FIVE_DICE), kind: 'five-dice' };
    if (job.kind === 'farkle-2p') return { ...cached(job, FARKLE_TWO_PLAYER), kind: 'farkle-2p' };
    const started = performance.now();
    return {
      id: job.id,
      ok: true,
      kind: 'farkle',
      solution: solveFarkle(job.options),
      ms: performance.now() - started,
    };
  } catch (error) {
    return { id: job.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

const transferables = (result: TableJobResult): ArrayBuffer[] => {
  if (!result.ok) return [];
  if (result.kind === 'five-dice') {
    const { values, bonusChance } = result.solution;
    return [values.buffer as ArrayBuffer, ...(bonusChance ? [bonusChance.buffer as ArrayBuffer] : [])];
  }
  if (result.kind === 'farkle')
    return [result.solution.turns.buffer as ArrayBuffer, result.solution.rollValue.buffer as ArrayBuffer];
  // The two-player table: its own typed arrays, each buffer once (a buffer listed twice cannot be transferred).
  const buffers = new Set<ArrayBuffer>();
  for (const value of Object.values(result.solution))
    if (ArrayBuffer.isView(value) && value.buffer instanceof ArrayBuffer) buffers.add(value.buffer);
  return [...buffers];
};

// Linux's nice value is per thread: this sets this worker thread's only, per job (a speculative
// warm-up build at ADVICE_WORKER_NICE, a table someone waits for at 0), so a warm-up build runs on
// CPU that the event loop (moves) leaves over (decision 0141). Lowering it back to 0 needs no
// privilege only up to the thread's limit: where it is refused, the thread stays as it is.
let currentNice = 0;
function niceFor(job: TableJob): void {
  const nice = job.nice ?? 0;
  if (nice === currentNice) return;
  try {
    setPriority(nice);
    currentNice = nice;
  } catch {
    // Not allowed here (raising priority back, some sandboxes): keep the current value.
  }
}

parentPort?.on('message', (job: TableJob) => {
  niceFor(job);
  const result = run(job);
  parentPort!.postMessage(result, transferables(result));
});
