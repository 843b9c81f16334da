/**
 * A private, throw-away high-availability database tier for the failover fault tests: one etcd,
 * two PostgreSQL nodes managed by Patroni (synchronous_mode on) and HAProxy routing to whichever
 * node Patroni's REST API calls the primary (`GET /primary` answers 200 only on the leader). It is
 * the topology of docs/operations.md, "High availability", on free loopback ports in a temporary
 * directory; the machine's shared PostgreSQL is never touched.
 *
 * Needs the Debian packages etcd-server, patroni and haproxy (`.ci/run` installs them) and the
 * PostgreSQL binaries of private-cluster.ts. PostgreSQL refuses to run as root, so as root Patroni
 * (which starts PostgreSQL) and etcd run as the `postgres` user.
 *
 * "Losing a node" is what a dead machine does: SIGKILL to its Patroni and to its postmaster, so
 * nothing is left to release the leader key; Patroni on the other node promotes its standby
 * once the key's TTL runs out.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, postgresBinDir } from './private-cluster';

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Leader-key TTL in seconds: a dead primary is replaced after about this long. */
export const HA_TTL_SECONDS = 10;

export const haToolsMissing = (): string | null => {
  for (const tool of ['/usr/bin/etcd', '/usr/bin/patroni', '/usr/sbin/haproxy'])
    if (!existsSync(tool)) return `${tool} is missing (apt-get install etcd-server patroni haproxy)`;
  return null;
};

interface Member {
  name: string;
  role: 'leader' | 'sync_standby' | 'replica' | 'standby_leader';
  state: string;
  port: number;
  lag?: number | string;
}

interface Node {
  name: string;
  pgPort: number;
  restPort: number;
  config: string;
  process?: ChildProcess;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class HaCluster {
  private etcd?: ChildProcess;
  private haproxy?: ChildProcess;

  private constructor(
    readonly root: string,
    private readonly etcdPorts: { client: number; peer: number },
    readonly nodes: Node[],
    /** HAProxy's port: always the current primary. */
    readonly port: number,
  ) {}

  /** postgresql:// URL through HAProxy (the current primary) of database `db`. */
  url(db = 'postgres'): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${db}`;
  }

  /** postgresql:// URL of one node directly (a standby, for reads). */
  nodeUrl(name: string, db = 'postgres'): string {
    return `postgresql://postgres@127.0.0.1:${this.node(name).pgPort}/${db}`;
  }

  static async create(): Promise<HaCluster> {
    const root = mkdtempSync(join(tmpdir(), 'fairdice-faults-ha-'));
    const ports = async (n: number) => Promise.all(Array.from({ length: n }, () => freePort()));
    const [client, peer, haPort, ...nodePorts] = await ports(7);
    const nodes: Node[] = [0, 1].map((i) => ({
      name: `node${i + 1}`,
      pgPort: nodePorts[2 * i],
      restPort: nodePorts[2 * i + 1],
      config: join(root, `patroni-node${i + 1}.yml`),
    }));
    const cluster = new HaCluster(root, { client, peer }, nodes, haPort);
    try {
      for (const node of nodes) writeFileSync(node.config, cluster.patroniConfig(node));
      writeFileSync(join(root, 'haproxy.cfg'), cluster.haproxyConfig());
      if (asRoot) {
        const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
        const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
        chownSync(root, uid, gid);
        for (const node of nodes) chownSync(node.config, uid, gid);
      }
      await cluster.startEtcd();
      cluster.startNode('node1');
      await cluster.waitFor(async () => (await cluster.members()).some((m) => m.role === 'leader'), 'a leader', 60_000);
      cluster.startNode('node2');
      await cluster.waitForSyncStandby();
      cluster.startHaproxy();
      await cluster.waitForPrimaryReachable(30_000);
      return cluster;
    } catch (err) {
      cluster.destroy();
      throw err;
    }
  }

  private node(name: string): Node {
    const node = this.nodes.find((n) => n.name === name);
    if (!node) throw new Error(`no node ${name}`);
    return node;
  }

  private patroniConfig(node: Node): string {
    // retry_timeout and loop_wait must fit the TTL: loop_wait + 2 × retry_timeout ≤ ttl.
    return `scope: fairdice-faults
name: ${node.name}
restapi:
  listen: 127.0.0.1:${node.restPort}
  connect_address: 127.0.0.1:${node.restPort}
etcd3:
  hosts: 127.0.0.1:${this.etcdPorts.client}
bootstrap:
  dcs:
    ttl: ${HA_TTL_SECONDS}
    loop_wait: 1
    retry_timeout: 3
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      parameters:
        wal_log_hints: "on"
        max_connections: 100
  initdb:
    - encoding: UTF8
    - auth: trust
  pg_hba:
    - host replication replicator 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
    - local all all trust
postgresql:
  listen: 127.0.0.1:${node.pgPort}
  connect_address: 127.0.0.1:${node.pgPort}
  data_dir: ${join(this.root, node.name)}
  bin_dir: ${postgresBinDir()}
  pgpass: ${join(this.root, `pgpass-${node.name}`)}
  authentication:
    replication: { username: replicator, password: replicator }
    superuser: { username: postgres, password: postgres }
    rewind: { username: postgres, password: postgres }
  parameters:
    unix_socket_directories: ${this.root}
`;
  }

  private haproxyConfig(): string {
    // Checks each node's Patroni every 500 ms; a node that stops answering 200 on /primary is
    // marked down and its client sessions are cut, so the pool reconnects to the new primary.
    return `global
    maxconn 400
    stats socket ${join(this.root, 'haproxy.sock')} mode 600 level admin
defaults
    mode tcp
    timeout connect 2s
    timeout client 30m
    timeout server 30m
    timeout check 1s
listen primary
    bind 127.0.0.1:${this.port}
    option httpchk GET /primary
    http-check expect status 200
    default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${this.nodes.map((n) => `    server ${n.name} 127.0.0.1:${n.pgPort} check port ${n.restPort}`).join('\n')}
`;
  }

  private spawnLogged(name: string, command: string, args: string[], asPostgres: boolean): ChildProcess {
    const log = openSync(join(this.root, `${name}.log`), 'a');
    const [cmd, argv] =
      asPostgres && asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
    // Its own process group, so that a SIGKILL to the group reaches the program behind runuser.
    return spawn(cmd, argv, { stdio: ['ignore', log, log], detached: true, cwd: this.root });
  }

  private async startEtcd(): Promise<void> {
    const { client, peer } = this.etcdPorts;
    this.etcd = this.spawnLogged(
      'etcd',
      '/usr/bin/etcd',
      [
        '--name=faults',
        `--data-dir=${join(this.root, 'etcd')}`,
        `--listen-client-urls=http://127.0.0.1:${client}`,
        `--advertise-client-urls=http://127.0.0.1:${client}`,
        `--listen-peer-urls=http://127.0.0.1:${peer}`,
        `--initial-advertise-peer-urls=http://127.0.0.1:${peer}`,
        `--initial-cluster=faults=http://127.0.0.1:${peer}`,
      ],
      true,
    );
    await this.waitFor(
      async () => (await fetch(`http://127.0.0.1:${client}/version`).catch(() => null))?.ok === true,
      'etcd',
      30_000,
    );
  }

  private startHaproxy(): void {
    this.haproxy = this.spawnLogged(
      'haproxy',
      '/usr/sbin/haproxy',
      ['-db', '-f', join(this.root, 'haproxy.cfg')],
      false,
    );
  }

  /** Starts (or restarts) a node's Patroni, which starts its PostgreSQL (rewound to follow, if it was the primary). */
  startNode(name: string): void {
    const node = this.node(name);
    node.process = this.spawnLogged(`patroni-${name}`, '/usr/bin/patroni', [node.config], true);
  }

  /** The machine dies: SIGKILL to the node's Patroni and to its postmaster. */
  killNode(name: string): void {
    const node = this.node(name);
    const pidFile = join(this.root, name, 'postmaster.pid');
    const postmaster = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : NaN;
    if (node.process?.pid) killGroup(node.process.pid);
    node.process = undefined;
    if (Number.isInteger(postmaster)) killPid(postmaster);
  }

  /** The cluster's members as Patroni sees them (asked of any node that answers). */
  async members(): Promise<Member[]> {
    for (const node of this.nodes) {
      const res = await fetch(`http://127.0.0.1:${node.restPort}/cluster`, { signal: AbortSignal.timeout(1000) }).catch(
        () => null,
      );
      if (res?.ok) return ((await res.json()) as { members: Member[] }).members;
    }
    return [];
  }

  async leader(): Promise<string | null> {
    return (await this.members()).find((m) => m.role === 'leader' && m.state === 'running')?.name ?? null;
  }

  /** Waits until a leader other than `not` runs. */
  async waitForLeader(not?: string, timeoutMs = 60_000): Promise<string> {
    let leader: string | null = null;
    await this.waitFor(
      async () => {
        leader = await this.leader();
        return leader !== null && leader !== not;
      },
      `a leader other than ${not}`,
      timeoutMs,
    );
    return leader!;
  }

  /** Waits until both nodes run, one the leader and the other its synchronous standby, streaming. */
  async waitForSyncStandby(timeoutMs = 90_000): Promise<void> {
    await this.waitFor(
      async () => {
        const members = await this.members();
        return (
          members.some((m) => m.role === 'leader' && m.state === 'running') &&
          members.some((m) => m.role === 'sync_standby' && (m.state === 'running' || m.state === 'streaming'))
        );
      },
      'a synchronous standby',
      timeoutMs,
    );
  }

  private async primaryReachable(): Promise<boolean> {
    const { Client } = await import('pg');
    const client = new Client({ connectionString: this.url(), connectionTimeoutMillis: 1000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r');
      return rows[0].r === false;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /**
   * HAProxy's view of its servers: name → up. (It takes servers for up until their first checks
   * fail, so a fresh HAProxy may route one connection to the standby: wait for this instead.)
   */
  async haproxyServersUp(): Promise<Map<string, boolean>> {
    const text = await new Promise<string>((resolve, reject) => {
      const socket = net.createConnection(join(this.root, 'haproxy.sock'));
      let out = '';
      socket.on('data', (d) => (out += d.toString()));
      socket.on('end', () => resolve(out));
      socket.on('error', reject);
      socket.write('show servers state primary\n');
    });
    // Format 1: be_id be_name srv_id srv_name srv_addr srv_op_state ... (2 = running).
    const up = new Map<string, boolean>();
    for (const line of text.split('\n')) {
      const f = line.trim().split(/\s+/);
      if (f.length > 6 && f[1] === 'primary') up.set(f[3], f[5] === '2');
    }
    return up;
  }

  /** Waits until HAProxy routes to the leader alone, and it takes writes. */
  async waitForPrimaryReachable(timeoutMs = 60_000): Promise<void> {
    await this.waitFor(
      async () => {
        const leader = await this.leader();
        const up = await this.haproxyServersUp();
        const routed = [...up].filter(([, u]) => u).map(([name]) => name);
        return leader !== null && routed.length === 1 && routed[0] === leader && (await this.primaryReachable());
      },
      'HAProxy routing to the leader alone',
      timeoutMs,
    );
  }

  private async waitFor(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check().catch(() => false))) {
      if (Date.now() > deadline)
        throw new Error(`HA cluster: no ${what} within ${timeoutMs} ms (logs in ${this.root})`);
      await sleep(200);
    }
  }

  /** Stops everything it started and removes the directory. */
  destroy(): void {
    for (const node of this.nodes) this.killNode(node.name);
    if (this.haproxy?.pid) killGroup(this.haproxy.pid);
    if (this.etcd?.pid) killGroup(this.etcd.pid);
    if (process.env.FAIRDICE_FAULTS_KEEP_HA !== '1') rmSync(this.root, { recursive: true, force: true });
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    killPid(pid);
  }
}

function killPid(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
