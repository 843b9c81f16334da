/**
 * A private, throw-away PostgreSQL cluster for the fault tests (`npm run test:faults`), which stop
 * and start "the database": they must never touch a cluster they did not create (the machine's
 * shared PostgreSQL serves everyone else). The cluster lives in a temporary directory, listens on
 * a free port of 127.0.0.1 (and a socket in that directory), and is removed afterwards.
 *
 * initdb refuses to run as root, so as root every PostgreSQL binary runs as the `postgres` user
 * (runuser); as any other user, as that user. The binaries are the newest under
 * /usr/lib/postgresql/<version>/bin (override: PG_BIN_DIR).
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Environment variables through which the workers find the cluster the global setup created. */
export const ENV = { root: 'FAIRDICE_FAULTS_PG_ROOT', port: 'FAIRDICE_FAULTS_PG_PORT' } as const;

export function postgresBinDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error(`no PostgreSQL binaries under ${base}/<version>/bin (set PG_BIN_DIR)`);
  return join(base, versions[0], 'bin');
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL binary (as the postgres user when we are root). */
function pg(binary: string, args: string[], timeoutMs = 60_000): string {
  const path = join(postgresBinDir(), binary);
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
  // cwd: a directory the postgres user can enter (not the checkout, which may be root's).
  return execFileSync(cmd, argv, { stdio: 'pipe', timeout: timeoutMs, encoding: 'utf8', cwd: tmpdir() });
}

/** As pg(), without blocking the event loop (for a fault injected while the app in this process serves). */
function pgAsync(binary: string, args: string[], timeoutMs = 60_000): Promise<string> {
  const path = join(postgresBinDir(), binary);
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
  return new Promise((resolve, reject) =>
    execFile(cmd, argv, { timeout: timeoutMs, encoding: 'utf8', cwd: tmpdir() }, (err: Error | null, stdout) =>
      err ? reject(err) : resolve(stdout),
    ),
  );
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export class PrivateCluster {
  private constructor(
    /** The temporary directory: data/ (the cluster), the socket, log. */
    readonly root: string,
    readonly port: number,
  ) {}

  get dataDir(): string {
    return join(this.root, 'data');
  }

  /** postgresql:// URL of the cluster's `postgres` database (trust authentication, loopback only). */
  get url(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** initdb into a new temporary directory and start it on a free port. */
  static async create(): Promise<PrivateCluster> {
    const root = mkdtempSync(join(tmpdir(), 'fairdice-faults-pg-'));
    if (asRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      chownSync(root, uid, gid);
    }
    const cluster = new PrivateCluster(root, await freePort());
    try {
      pg('initdb', ['-D', cluster.dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'], 120_000);
      cluster.start();
    } catch (err) {
      cluster.destroy();
      throw err;
    }
    return cluster;
  }

  /**
   * A streaming standby of `primary` (hot standby, read-only): pg_basebackup -R of the running
   * primary into a new temporary directory, started on a free port. The primary must allow
   * replication connections from 127.0.0.1 (initdb's trust default does).
   */
  static async standbyOf(primary: PrivateCluster): Promise<PrivateCluster> {
    const root = mkdtempSync(join(tmpdir(), 'fairdice-faults-standby-'));
    if (asRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      chownSync(root, uid, gid);
    }
    const standby = new PrivateCluster(root, await freePort());
    try {
      pg(
        'pg_basebackup',
        [
          '-D',
          standby.dataDir,
          '-h',
          '127.0.0.1',
          '-p',
          String(primary.port),
          '-U',
          'postgres',
          '-R',
          '-X',
          'stream',
          '-c',
          'fast',
          '--no-sync',
        ],
        120_000,
      );
      standby.start();
    } catch (err) {
      standby.destroy();
      throw err;
    }
    return standby;
  }

  /** The cluster the global setup created, found from the environment (in a Jest worker). */
  static fromEnv(): PrivateCluster {
    const root = process.env[ENV.root];
    const port = Number(process.env[ENV.port]);
    if (!root || !port || !existsSync(join(root, 'data', 'PG_VERSION')))
      throw new Error(
        'no private PostgreSQL cluster: run the fault tests with `npm run test:faults` (its global setup creates one)',
      );
    return new PrivateCluster(root, port);
  }

  start(): void {
    pg('pg_ctl', [
      '-D',
      this.dataDir,
      '-l',
      join(this.root, 'postgres.log'),
      '-o',
      `-p ${this.port} -k ${this.root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`,
      '-w',
      '-t',
      '60',
      'start',
    ]);
  }

  /** Fast shutdown (connections are cut, as in a crash of the database server). */
  stop(): void {
    pg('pg_ctl', ['-D', this.dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']);
  }

  /**
   * As stop(), without blocking the event loop: the synchronous stop would stall an app served by
   * this process for the shutdown's duration (its readiness then reports event-loop delay).
   */
  async stopAsync(): Promise<void> {
    await pgAsync('pg_ctl', ['-D', this.dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']);
  }

  isRunning(): boolean {
    try {
      pg('pg_ctl', ['-D', this.dataDir, 'status']);
      return true;
    } catch {
      return false;
    }
  }

  isReady(): boolean {
    try {
      pg('pg_isready', ['-h', '127.0.0.1', '-p', String(this.port), '-q'], 10_000);
      return true;
    } catch {
      return false;
    }
  }

  /** Stops the cluster if it runs and deletes its directory. */
  destroy(): void {
    try {
      if (existsSync(join(this.dataDir, 'postmaster.pid'))) this.stop();
    } catch {
      // already stopped
    }
    rmSync(this.root, { recursive: true, force: true });
  }
}
