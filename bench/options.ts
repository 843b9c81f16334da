/**
 * The bench CLI's options (`npm run bench -- --help`, parsed by parseArgs) and where it writes
 * its reports (bench/results/).
 */
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..');
export const RESULTS_DIR = join(ROOT, 'bench', 'results');
export const PROFILE_DIR = join(RESULTS_DIR, 'profiles');

export interface Options {
  clients: number;
  seconds: number;
  warmup: number;
  pool: number;
  microMs: number;
  profile: boolean;
  readme: boolean;
  micro: boolean;
  variants: boolean;
  groupCommit: 'on' | 'off' | 'both';
  /** Scenario ids to run (--only a,b,rest,restCompact,ws,p16,graphql,reads,instances,firstWindow,jobs,tournament); null = all. */
  only: Set<string> | null;
  /** Report file suffix (--label perf → bench/results/<date>-perf.md). */
  label: string | null;
}

export function parseArgs(argv: string[]): Options {
  const o: Options = {
    clients: 64,
    seconds: 10,
    warmup: 5,
    pool: Number(process.env.DATABASE_POOL_MAX ?? 10),
    microMs: 300,
    profile: false,
    readme: true,
    micro: true,
    variants: false,
    groupCommit: 'on',
    only: null,
    label: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      const n = Number(v);
      if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} needs a positive number (got ${v})`);
      return n;
    };
    switch (flag) {
      case '--clients':
        o.clients = Math.floor(value());
        break;
      case '--seconds':
        o.seconds = value();
        break;
      case '--warmup':
        o.warmup = value();
        break;
      case '--pool':
        o.pool = Math.floor(value());
        break;
      case '--micro-ms':
        o.microMs = value();
        break;
      case '--profile':
        o.profile = true;
        break;
      case '--no-readme':
        o.readme = false;
        break;
      case '--skip-micro':
        o.micro = false;
        break;
      case '--variants':
        o.variants = true;
        break;
      case '--group-commit': {
        const v = inline ?? argv[++i];
        if (v !== 'on' && v !== 'off' && v !== 'both')
          throw new Error(`--group-commit needs on, off or both (got ${v})`);
        o.groupCommit = v;
        break;
      }
      case '--only':
        // For profiling one path; a report of a partial run is not a full bench (the README is not touched).
        o.only = new Set((inline ?? argv[++i] ?? '').split(',').filter(Boolean));
        o.readme = false;
        break;
      case '--label':
        o.label = (inline ?? argv[++i] ?? '').replace(/[^a-z0-9-]/gi, '') || null;
        break;
      case '--help':
      case '-h':
        console.log(
          'npm run bench -- [--clients 64] [--seconds 10] [--warmup 5] [--pool 10] [--micro-ms 300] [--profile] [--no-readme] [--skip-micro] [--variants] [--only rest,graphql,...] [--label name] [--group-commit on|off|both]',
        );
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${a} (see --help)`);
    }
  }
  return o;
}
