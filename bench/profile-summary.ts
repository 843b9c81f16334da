/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time aggregated by function + url,
 * largest first; plus self time by package/area (node_modules/<pkg>, src/<dir>, node:internal,
 * native/GC), which is how cost centres are named in bench/README.md.
 *
 *   node dist/bench/profile-summary.js <file.cpuprofile> [--top 25] [--skip-ms 0]
 *
 * --skip-ms drops the samples of the first N ms (server start-up) so only the load is counted.
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTimeRow {
  functionName: string;
  url: string;
  line: number;
  selfMs: number;
  percent: number;
}

export interface CallerRow {
  functionName: string;
  url: string;
  /** Nearest ancestors outside node: internals and natives, e.g. "submit (pg)", with their share. */
  callers: Array<{ caller: string; selfMs: number }>;
}

export interface ProfileSummary {
  /** Who the top native/node-internal frames work for. */
  callers: CallerRow[];
  totalMs: number;
  idleMs: number;
  busyMs: number;
  functions: SelfTimeRow[];
  areas: Array<{ area: string; selfMs: number; percent: number }>;
}

function shortUrl(url: string): string {
  if (!url) return '';
  const u = url.replace(/^file:\/\//, '');
  const nm = u.lastIndexOf('/node_modules/');
  if (nm >= 0) return u.slice(nm + 1);
  const dist = u.indexOf('/dist/');
  if (dist >= 0) return u.slice(dist + 1);
  return u;
}

/** The package or project area a frame belongs to. */
export function areaOf(frame: CallFrame): string {
  const url = frame.url;
  if (!url) {
    const fn = frame.functionName;
    if (fn === '(idle)' || fn === '(program)' || fn === '(garbage collector)' || fn === '(root)') return fn;
    return '(native/builtin)';
  }
  if (url.startsWith('node:')) return 'node: internals';
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/g);
  if (m) return m[m.length - 1].replace('node_modules/', '');
  const src = url.match(/dist\/src\/([^/]+)/);
  if (src) return src[1] === 'generated' ? 'src/generated (prisma client)' : `src/${src[1].replace(/\.js$/, '')}`;
  if (/dist\/bench\//.test(url)) return 'bench';
  return shortUrl(url);
}

export function summarizeProfile(profile: CpuProfile, opts: { skipMs?: number; top?: number } = {}): ProfileSummary {
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const selfUs = new Map<number, number>();
  const skipUs = (opts.skipMs ?? 0) * 1000;
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    if (t - profile.startTime < skipUs) continue;
    // The sample's weight: the time until the next sample (V8's own attribution).
    const w = profile.timeDeltas[i + 1] ?? 0;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + Math.max(0, w));
  }
  const fnAgg = new Map<string, SelfTimeRow>();
  const areaAgg = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const f = node.callFrame;
    totalUs += us;
    if (f.functionName === '(idle)') idleUs += us;
    const key = `${f.functionName}\u0000${f.url}\u0000${f.lineNumber}`;
    const row = fnAgg.get(key) ?? {
      functionName: f.functionName || '(anonymous)',
      url: shortUrl(f.url),
      line: f.lineNumber + 1,
      selfMs: 0,
      percent: 0,
    };
    row.selfMs += us / 1000;
    fnAgg.set(key, row);
    const area = areaOf(f);
    areaAgg.set(area, (areaAgg.get(area) ?? 0) + us / 1000);
  }
  const busyMs = (totalUs - idleUs) / 1000;
  const pct = (ms: number) => (busyMs > 0 ? (ms / busyMs) * 100 : 0);
  const functions = [...fnAgg.values()]
    .filter((r) => r.functionName !== '(idle)')
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, opts.top ?? 25)
    .map((r) => ({ ...r, percent: pct(r.selfMs) }));
  const areas = [...areaAgg.entries()]
    .filter(([a]) => a !== '(idle)')
    .map(([area, ms]) => ({ area, selfMs: ms, percent: pct(ms) }))
    .sort((a, b) => b.selfMs - a.selfMs);
  // For the top frames that are natives or node internals: the nearest "owner" frame above them.
  const callers: CallerRow[] = [];
  const isLibFrame = (f: CallFrame) => f.url !== '' && !f.url.startsWith('node:');
  for (const top of functions.slice(0, 12)) {
    if (top.url && !top.url.startsWith('node:')) continue;
    const owners = new Map<string, number>();
    for (const [id, us] of selfUs) {
      const f = byId.get(id)!.callFrame;
      if ((f.functionName || '(anonymous)') !== top.functionName || shortUrl(f.url) !== top.url) continue;
      let p = parent.get(id);
      let owner = '(no JS caller)';
      while (p !== undefined) {
        const pf = byId.get(p)!.callFrame;
        if (isLibFrame(pf)) {
          owner = `${pf.functionName || '(anonymous)'} (${areaOf(pf)})`;
          break;
        }
        p = parent.get(p);
      }
      owners.set(owner, (owners.get(owner) ?? 0) + us / 1000);
    }
    callers.push({
      functionName: top.functionName,
      url: top.url,
      callers: [...owners.entries()]
        .map(([caller, ms]) => ({ caller, selfMs: ms }))
        .sort((a, b) => b.selfMs - a.selfMs)
        .slice(0, 4),
    });
  }
  return { callers, totalMs: totalUs / 1000, idleMs: idleUs / 1000, busyMs, functions, areas };
}

export function summarizeProfileFile(path: string, opts: { skipMs?: number; top?: number } = {}): ProfileSummary {
  return summarizeProfile(JSON.parse(readFileSync(path, 'utf8')) as CpuProfile, opts);
}

export function formatSummary(s: ProfileSummary, topAreas = 15): string {
  const lines: string[] = [];
  lines.push(
    `Profile: ${(s.totalMs / 1000).toFixed(1)} s sampled, ${(s.busyMs / 1000).toFixed(1)} s busy (non-idle), ${(s.idleMs / 1000).toFixed(1)} s idle. Percentages are of busy time.`,
  );
  lines.push('');
  lines.push('Self time by area:');
  lines.push('');
  lines.push('| area | self ms | % busy |');
  lines.push('|---|---:|---:|');
  for (const a of s.areas.slice(0, topAreas))
    lines.push(`| ${a.area} | ${a.selfMs.toFixed(0)} | ${a.percent.toFixed(1)} |`);
  lines.push('');
  lines.push('Top functions by self time:');
  lines.push('');
  lines.push('| function | location | self ms | % busy |');
  lines.push('|---|---|---:|---:|');
  for (const f of s.functions)
    lines.push(
      `| \`${f.functionName.replace(/\|/g, '\\|')}\` | ${f.url ? `${f.url}:${f.line}` : '(native)'} | ${f.selfMs.toFixed(0)} | ${f.percent.toFixed(1)} |`,
    );
  if (s.callers.length) {
    lines.push('');
    lines.push('Natives and node internals among the top functions, by nearest library/project caller:');
    lines.push('');
    for (const c of s.callers) {
      lines.push(
        `- \`${c.functionName}\`${c.url ? ` (${c.url})` : ''}: ${c.callers.map((x) => `${x.caller} ${x.selfMs.toFixed(0)} ms`).join('; ')}`,
      );
    }
  }
  return lines.join('\n');
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const file = args.find((a) => a.endsWith('.cpuprofile')) ?? args[0];
  const num = (flag: string, dflt: number) => {
    const i = args.indexOf(flag);
    return i >= 0 ? Number(args[i + 1]) : dflt;
  };
  if (!file) {
    process.stderr.write('usage: node dist/bench/profile-summary.js <file.cpuprofile> [--top 25] [--skip-ms 0]\n');
    process.exit(2);
  }
  console.log(formatSummary(summarizeProfileFile(file, { top: num('--top', 25), skipMs: num('--skip-ms', 0) })));
}
