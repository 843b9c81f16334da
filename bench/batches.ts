/**
 * Group commit in the bench (decision 0045): the distribution of commands per event-store write
 * statement, read from the server's /metrics (fairdice_event_append_batch_size, a histogram) before
 * and after a scenario. Creations are statements of one command each and are included.
 */

export interface BatchSizes {
  /** Statements written. */
  batches: number;
  /** Commands they wrote. */
  commands: number;
  /** Cumulative bucket counts: statements with at most `le` commands. */
  buckets: Array<{ le: number; count: number }>;
  /** Cumulative latency buckets (seconds) of fairdice_event_append_duration_seconds by kind (append, batch). */
  latency: Record<string, Array<{ le: number; count: number }>>;
}

const METRIC = 'fairdice_event_append_batch_size';

/** The server's histogram now, or null when /metrics is off or unreachable. */
export async function scrapeBatchSizes(port: number): Promise<BatchSizes | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) return null;
    return parseBatchSizes(await res.text());
  } catch {
    return null;
  }
}

export function parseBatchSizes(text: string): BatchSizes {
  const out: BatchSizes = { batches: 0, commands: 0, buckets: [], latency: {} };
  for (const line of text.split('\n')) {
    const m = /^(\w+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const value = Number(m[3]);
    if (m[1] === `${METRIC}_count`) out.batches = value;
    else if (m[1] === `${METRIC}_sum`) out.commands = value;
    else if (m[1] === `${METRIC}_bucket`) {
      const le = /le="([^"]+)"/.exec(m[2] ?? '')?.[1];
      if (le !== undefined && le !== '+Inf') out.buckets.push({ le: Number(le), count: value });
    } else if (m[1] === 'fairdice_event_append_duration_seconds_bucket') {
      const le = /le="([^"]+)"/.exec(m[2] ?? '')?.[1];
      const kind = /kind="([^"]+)"/.exec(m[2] ?? '')?.[1];
      if (le === undefined || kind === undefined) continue;
      (out.latency[kind] ??= []).push({ le: le === '+Inf' ? Infinity : Number(le), count: value });
    }
  }
  out.buckets.sort((a, b) => a.le - b.le);
  for (const k of Object.keys(out.latency)) out.latency[k].sort((a, b) => a.le - b.le);
  return out;
}

/** What happened between two scrapes. */
export function batchDelta(before: BatchSizes, after: BatchSizes): BatchSizes {
  return {
    batches: after.batches - before.batches,
    commands: after.commands - before.commands,
    buckets: after.buckets.map((b) => ({
      le: b.le,
      count: b.count - (before.buckets.find((x) => x.le === b.le)?.count ?? 0),
    })),
    latency: Object.fromEntries(
      Object.entries(after.latency).map(([kind, bs]) => [
        kind,
        bs.map((b) => ({ le: b.le, count: b.count - (before.latency[kind]?.find((x) => x.le === b.le)?.count ?? 0) })),
      ]),
    ),
  };
}

/** The bucket bound under which a share `q` of the observations fell (an upper bound of the quantile). */
function quantileBound(bs: Array<{ le: number; count: number }>, q: number): number {
  const total = bs[bs.length - 1]?.count ?? 0;
  if (total <= 0) return NaN;
  return bs.find((b) => b.count >= q * total)?.le ?? Infinity;
}

const ms = (s: number) => (Number.isFinite(s) ? `≤ ${+(s * 1000).toPrecision(3)} ms` : '> 5 s');

/** One line: statements, mean commands per statement, and the share of commands by batch size. */
export function describeBatchSizes(d: BatchSizes): string {
  if (d.batches <= 0) return 'no event-store writes seen';
  const mean = d.commands / d.batches;
  // Share of statements up to each bucket bound (cumulative), e.g. "≤1 42%".
  const shares = d.buckets
    .filter((b, i) => i === 0 || b.count !== d.buckets[i - 1].count || b.count < d.batches)
    .map((b) => `≤${b.le}: ${((b.count / d.batches) * 100).toFixed(0)}%`);
  const lat = (kind: string) =>
    d.latency[kind]
      ? `p50 ${ms(quantileBound(d.latency[kind], 0.5))}, p99 ${ms(quantileBound(d.latency[kind], 0.99))}`
      : '–';
  return `${d.batches.toLocaleString('en-US')} write statements for ${d.commands.toLocaleString('en-US')} commands, mean ${mean.toFixed(2)} commands per statement; statements with at most n commands: ${shares.join(', ')}; one command's append (gathering included) ${lat('append')}; one statement ${lat('batch')}`;
}
