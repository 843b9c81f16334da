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
  const out: BatchSizes = { batches: 0, commands: 0, buckets: [] };
  for (const line of text.split('\n')) {
    const m = /^(\w+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const value = Number(m[3]);
    if (m[1] === `${METRIC}_count`) out.batches = value;
    else if (m[1] === `${METRIC}_sum`) out.commands = value;
    else if (m[1] === `${METRIC}_bucket`) {
      const le = /le="([^"]+)"/.exec(m[2] ?? '')?.[1];
      if (le !== undefined && le !== '+Inf') out.buckets.push({ le: Number(le), count: value });
    }
  }
  out.buckets.sort((a, b) => a.le - b.le);
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
  };
}

/** One line: statements, mean commands per statement, and the share of commands by batch size. */
export function describeBatchSizes(d: BatchSizes): string {
  if (d.batches <= 0) return 'no event-store writes seen';
  const mean = d.commands / d.batches;
  // Share of statements up to each bucket bound (cumulative), e.g. "≤1 42%".
  const shares = d.buckets
    .filter((b, i) => i === 0 || b.count !== d.buckets[i - 1].count || b.count < d.batches)
    .map((b) => `≤${b.le}: ${((b.count / d.batches) * 100).toFixed(0)}%`);
  return `${d.batches.toLocaleString('en-US')} write statements for ${d.commands.toLocaleString('en-US')} commands, mean ${mean.toFixed(2)} commands per statement; statements with at most n commands: ${shares.join(', ')}`;
}
