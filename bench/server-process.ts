/**
 * Servers under test run as child processes (`node <script>`), so their CPU and memory are
 * their own. Peak memory: the kernel's VmHWM from /proc/<pid>/status, reset at the start of
 * each measured window by writing 5 to /proc/<pid>/clear_refs (Linux ≥ 4.0); VmRSS is also
 * sampled every 100 ms as a fallback where the reset is not allowed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { generateVapidKeys } from '../src/keys/service-keys';

/** Web Push keys for a bench server: required with DATABASE_URL (docs/operations.md, Keys). */
export const vapidEnv = () => {
  const k = generateVapidKeys();
  return { VAPID_PUBLIC_KEY: k.publicKey, VAPID_PRIVATE_KEY: k.privateKey };
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function get(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.setTimeout(2000, () => req.destroy());
  });
}

function statusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * The process and every descendant (/proc/<pid>/stat's parent pid): a helper process the service
 * starts counts in its memory and CPU (issue 29: summed over every process; worker threads are
 * inside their process already).
 */
export function processTree(root: number): number[] {
  const parentOf = new Map<number, number>();
  let names: string[] = [];
  try {
    names = readdirSync('/proc');
  } catch {
    return [root];
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parentOf.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Exited meanwhile.
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++)
    for (const [pid, parent] of parentOf) if (parent === tree[i] && !tree.includes(pid)) tree.push(pid);
  return tree;
}

const sumOver = (pids: number[], read: (pid: number) => number | null): number | null => {
  let sum: number | null = null;
  for (const pid of pids) {
    const v = read(pid);
    if (v !== null) sum = (sum ?? 0) + v;
  }
  return sum;
};

/** utime + stime of a process in seconds (/proc/<pid>/stat, clock ticks of 1/100 s). */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Busy and total jiffies of the whole machine (/proc/stat), for the machine's busy share. */
export function machineCpu(): { busy: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = line[3] + (line[4] ?? 0);
    const total = line.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

export interface ServerOptions {
  name: string;
  script: string;
  env?: Record<string, string>;
  nodeArgs?: string[];
  port: number;
  readyPath: string;
  timeoutMs?: number;
}

export class ServerProcess {
  readonly child: ChildProcess;
  private output: string[] = [];
  private exited: Promise<number | null>;
  private sampler: NodeJS.Timeout | null = null;
  private sampledPeakKb = 0;
  private resetWorked = false;
  private cpuAtStart: number | null = null;
  private windowStart = 0;
  /** Milliseconds from spawn to the first successful ready check. */
  startupMs = 0;

  private constructor(readonly options: ServerOptions) {
    this.child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.script], {
      env: { ...process.env, ...options.env, PORT: String(options.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (d: Buffer) => {
      this.output.push(d.toString());
      if (this.output.length > 200) this.output.splice(0, 100);
    };
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  static async start(options: ServerOptions): Promise<ServerProcess> {
    const t0 = performance.now();
    const server = new ServerProcess(options);
    let dead = false;
    void server.exited.then(() => (dead = true));
    const deadline = Date.now() + (options.timeoutMs ?? 60_000);
    for (;;) {
      if (dead) throw new Error(`${options.name} exited during start-up:\n${server.log()}`);
      if ((await get(options.port, options.readyPath)) === 200) break;
      if (Date.now() > deadline) {
        await server.stop();
        throw new Error(`${options.name} not ready after ${options.timeoutMs ?? 60_000} ms:\n${server.log()}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    server.startupMs = performance.now() - t0;
    return server;
  }

  get pid(): number {
    return this.child.pid!;
  }

  log(): string {
    return this.output.join('').slice(-4000);
  }

  /** Starts a measured window: resets the kernel's peak RSS and starts sampling. */
  beginWindow(): void {
    const tree = processTree(this.pid);
    try {
      for (const pid of tree) writeFileSync(`/proc/${pid}/clear_refs`, '5');
      this.resetWorked = true;
    } catch {
      this.resetWorked = false;
    }
    this.sampledPeakKb = sumOver(tree, (pid) => statusKb(pid, 'VmRSS')) ?? 0;
    this.cpuAtStart = sumOver(tree, processCpuSeconds);
    this.windowStart = performance.now();
    if (this.sampler) clearInterval(this.sampler);
    this.sampler = setInterval(() => {
      const rss = sumOver(processTree(this.pid), (pid) => statusKb(pid, 'VmRSS'));
      if (rss !== null && rss > this.sampledPeakKb) this.sampledPeakKb = rss;
    }, 100);
    this.sampler.unref();
  }

  /**
   * Ends the window: the peak RSS in MiB during it summed over the process tree (each process's
   * VmHWM since the reset, or the sampled sum of VmRSS, whichever is larger), and the tree's CPU.
   */
  endWindow(): { peakMiB: number; source: 'VmHWM' | 'VmHWM since start' | 'sampled VmRSS'; cpuPercent: number } {
    if (this.sampler) clearInterval(this.sampler);
    this.sampler = null;
    const tree = processTree(this.pid);
    const cpuNow = sumOver(tree, processCpuSeconds);
    const wall = (performance.now() - this.windowStart) / 1000;
    const cpuPercent =
      cpuNow !== null && this.cpuAtStart !== null && wall > 0 ? ((cpuNow - this.cpuAtStart) / wall) * 100 : NaN;
    const hwm = sumOver(tree, (pid) => statusKb(pid, 'VmHWM'));
    if (hwm !== null) {
      const kb = Math.max(hwm, this.sampledPeakKb);
      return { peakMiB: kb / 1024, source: this.resetWorked ? 'VmHWM' : 'VmHWM since start', cpuPercent };
    }
    return { peakMiB: this.sampledPeakKb / 1024, source: 'sampled VmRSS', cpuPercent };
  }

  /** SIGTERM (graceful; lets --cpu-prof write its file), SIGKILL after `graceMs`. */
  async stop(graceMs = 15_000): Promise<number | null> {
    if (this.sampler) clearInterval(this.sampler);
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.child.exitCode;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}

/** What a measured window needs from the server(s) under test. */
export interface WindowedServer {
  beginWindow(): void;
  endWindow(): { peakMiB: number; source: string; cpuPercent: number };
}

/**
 * Several instances measured as one: CPU summed (100 % = one core, so 3 busy instances can show
 * more than 100), peak RSS the largest instance's (each is its own process; the README table's
 * memory figure is per instance).
 */
export class ServerGroup implements WindowedServer {
  constructor(readonly servers: ServerProcess[]) {}

  beginWindow(): void {
    for (const s of this.servers) s.beginWindow();
  }

  endWindow(): { peakMiB: number; source: string; cpuPercent: number } {
    const ends = this.servers.map((s) => s.endWindow());
    return {
      peakMiB: Math.max(...ends.map((e) => e.peakMiB)),
      source: `largest of ${ends.length} instances (${ends[0]?.source ?? '–'})`,
      cpuPercent: ends.reduce((sum, e) => sum + e.cpuPercent, 0),
    };
  }

  async stop(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.stop()));
  }
}
