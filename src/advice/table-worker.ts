/**
 * The advice tables' worker thread (node:worker_threads). It does every heavy step off the
 * event loop: reading and checking a cached five-dice table, or solving it (seconds of CPU) and
 * writing it to the cache (temp file, then rename, so a crash never leaves half a table); and
 * solving Farkle. The solved arrays go back to the service as transferred buffers (no copy).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import {
  deserializeSolution,
  serializeSolution,
  solveFarkle,
  solveFiveDice,
  withBonusChance,
  type FarkleSolution,
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
  | { id: number; kind: 'farkle'; options: FarkleOptions }
) & {
  /** The worker thread's nice value for this job. */
  nice?: number;
};

export type TableJobResult =
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

function fiveDice(job: Extract<TableJob, { kind: 'five-dice' }>): TableJobResult {
  const started = performance.now();
  let cacheMiss: string | undefined;
  if (job.file) {
    try {
      const bytes = readFileSync(job.file);
      const read = deserializeSolution(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), job.options);
      if (read.ok)
        return {
          id: job.id,
          ok: true,
          kind: 'five-dice',
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
  const solved = solveFiveDice(job.options);
  const solution = job.bonusChance === true ? withBonusChance(solved) : solved;
  const bytes = serializeSolution(solution);
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
    kind: 'five-dice',
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
    if (job.kind === 'five-dice') return fiveDice(job);
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
  return [result.solution.turns.buffer as ArrayBuffer, result.solution.rollValue.buffer as ArrayBuffer];
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
