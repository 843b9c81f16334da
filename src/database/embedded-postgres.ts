/**
 * Embedded PostgreSQL for development and tests: PGlite (PostgreSQL compiled to WASM, in this
 * process) served over the PostgreSQL wire protocol by @electric-sql/pglite-socket on a
 * loopback port. The app, the migrate step and the tests then all use the same code path
 * (`pg` + `@prisma/adapter-pg`) whether the database is embedded or a real server.
 *
 * Connection semantics of PGLiteSocketServer 0.2.17 (read from its source; they matter):
 * - PGlite is ONE PostgreSQL backend, i.e. one session. Every socket connection is multiplexed
 *   onto it: protocol messages from all connections go through one global queue and run one at
 *   a time. While the backend is inside a transaction, only the connection that opened it is
 *   served (others wait), so transactions are isolated from each other.
 * - Session state is SHARED by all connections: SET, temp tables, named prepared statements,
 *   and session advisory locks (`pg_advisory_lock` from two connections both succeed). Outside
 *   a transaction, messages of two connections' extended-protocol exchanges can interleave.
 *   Hence: one process should use ONE connection (pg pool `max: 1`, see EMBEDDED_POOL_MAX).
 * - The library queues each protocol MESSAGE, not each exchange, so two connections' extended-
 *   protocol exchanges (Parse/Bind/Describe/Execute/Sync) can interleave on the one session and
 *   clobber each other's unnamed statement ("unnamed prepared statement does not exist", or
 *   worse, a bind against the other statement). Upstream: electric-sql/pglite#1046, PR #977,
 *   unfixed in 0.2.17. `serializeExchanges` below gives a connection the session from its first
 *   message until its exchange ends (Sync, simple Query, Terminate), so several processes (jest
 *   workers, a CLI next to the app) can each hold a connection safely.
 * - `maxConnections` defaults to 1 in the library; extra connections are not queued but get a
 *   plain-text "Too many connections" and are closed (pg reports a protocol/connection error).
 *   A closed connection is only forgotten on a later tick, so "close one, open the next"
 *   (migrate, then the app pool) can race with a limit of 1. We default to 16.
 * - Cancel requests are ignored; SSL requests are answered "N" (no SSL). Any user, password
 *   and database name are accepted; the URL uses postgres@.../postgres.
 * - A data directory must be used by one process at a time (PGlite does not lock it).
 * - PGlite cannot be started inside a Jest worker (it loads Node built-ins with dynamic
 *   import(), which Jest's VM refuses without --experimental-vm-modules): start it in Jest's
 *   globalSetup or in a child process (test/helpers/database.ts does both).
 *
 * Start-up cost: a new cluster runs initdb inside WASM, ~5 s on an idle 2-CPU machine and
 * 15-25 s under load. In-memory instances (tests) therefore start from a cached template: the
 * first one dumps its freshly initialized data directory to a tarball in the OS temp dir
 * (keyed by PGlite version), later ones load it (~1-3 s). Disable with `templateCache: false`
 * or FAIRDICE_PGLITE_TEMPLATE_CACHE=0.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** pg pool size to use against the embedded database (one PGlite session, see above). */
export const EMBEDDED_POOL_MAX = 1;

export interface EmbeddedPostgresOptions {
  /** Directory for persistent data (created if missing); null or undefined = in memory. */
  dataDir?: string | null;
  /** TCP port on 127.0.0.1; 0 or undefined = pick a free port. */
  port?: number;
  /** Socket connections accepted at once (all share one session). Default 16. */
  maxConnections?: number;
  /** In-memory only: start from a cached initdb template (see above). Default true. */
  templateCache?: boolean;
}

export interface EmbeddedPostgres {
  /** postgresql:// URL for pg / Prisma. */
  url: string;
  port: number;
  /** Closes connections, stops listening and closes PGlite (flushes data to dataDir). */
  stop(): Promise<void>;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  let db: PGlite;
  if (options.dataDir) {
    const dir = resolve(options.dataDir);
    mkdirSync(dir, { recursive: true });
    db = await PGlite.create(dir);
  } else {
    const useCache = (options.templateCache ?? true) && process.env.FAIRDICE_PGLITE_TEMPLATE_CACHE !== '0';
    db = useCache ? await createInMemoryFromTemplate() : await PGlite.create();
  }

  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: options.port ?? 0,
    maxConnections: options.maxConnections ?? 16,
  });
  try {
    await server.start();
  } catch (err) {
    await db.close();
    throw err;
  }
  serializeExchanges(server);
  const port = Number(server.getServerConn().split(':').pop());

  let stopped = false;
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      // The server detaches handlers without awaiting them (a handler may still roll back an
      // open transaction); let that settle before closing the database.
      await new Promise((r) => setTimeout(r, 20));
      await db.close();
    },
  };
}

function templatePath(): string {
  let version = 'unknown';
  try {
    // package.json is not in the package's "exports"; read it next to the resolved entry.
    const entry = require.resolve('@electric-sql/pglite');
    version = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')).version;
  } catch {
    // keep 'unknown'
  }
  return join(tmpdir(), `fairdice-pglite-template-${version}.tar`);
}

/** A fresh in-memory PGlite, loaded from the cached template when there is a usable one. */
async function createInMemoryFromTemplate(): Promise<PGlite> {
  const path = templatePath();
  if (existsSync(path)) {
    try {
      return await PGlite.create({ loadDataDir: new Blob([readFileSync(path)]) });
    } catch {
      rmSync(path, { force: true }); // corrupt or incompatible: rebuild below
    }
  }
  const db = await PGlite.create();
  try {
    const dump = await db.dumpDataDir('none');
    const tmp = `${path}.${process.pid}.${Date.now()}`;
    writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    renameSync(tmp, path); // atomic: concurrent writers just replace each other
  } catch {
    // The cache is an optimization only.
  }
  return db;
}

/** The library's private query queue (0.2.17), as far as serializeExchanges replaces it. */
interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  resolve: (resultSize: number) => void;
  reject: (error: Error) => void;
  onData: (data: Uint8Array) => void;
}
interface MessageQueue {
  queue: QueuedMessage[];
  processing: boolean;
  db: PGlite;
  lastHandlerId: number | null;
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
}

/** Frontend messages that end an exchange: Sync, simple Query, Terminate; a startup message has no type byte (0). */
const EXCHANGE_END = new Set([0, ...['S', 'Q', 'X'].map((c) => c.charCodeAt(0))]);

/**
 * Makes the socket server run whole exchanges, not single messages, one connection at a time
 * (see the header comment): the upstream fix (pglite PR #977), applied to the pinned 0.2.17.
 * The library already serves only the connection that holds an open transaction; this also
 * pins the connection that is in the middle of an exchange. It also keeps a failed message from
 * stalling the queue for good (the library returns without clearing `processing`, #1046).
 */
export function serializeExchanges(server: PGLiteSocketServer): void {
  const q = (server as unknown as { queryQueue?: Partial<MessageQueue> }).queryQueue;
  if (
    !q ||
    !Array.isArray(q.queue) ||
    typeof q.processQueue !== 'function' ||
    typeof q.clearQueueForHandler !== 'function' ||
    !('lastHandlerId' in q) ||
    !q.db
  ) {
    // A library update changed its internals: fail loudly rather than run without the guard.
    throw new Error('@electric-sql/pglite-socket internals changed: re-check serializeExchanges');
  }
  const queue = q as MessageQueue;
  let midExchange = false;

  queue.processQueue = async function processQueue(this: MessageQueue): Promise<void> {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const pinned = this.lastHandlerId !== null && (midExchange || this.db.isInTransaction());
        const index = pinned ? this.queue.findIndex((m) => m.handlerId === this.lastHandlerId) : 0;
        if (index === -1) break; // the pinned connection's next message has not arrived yet
        const [next] = this.queue.splice(index, 1);
        let size = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(next.message, {
              onRawData: (data) => {
                size += data.length;
                next.onData(data);
              },
            }),
          );
        } catch (err) {
          next.reject(err as Error);
          continue;
        }
        midExchange = !EXCHANGE_END.has(next.message[0]);
        this.lastHandlerId = next.handlerId;
        next.resolve(size);
      }
    } finally {
      this.processing = false;
    }
  };

  const clear = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (handlerId: number) => {
    clear(handlerId);
    if (queue.lastHandlerId === handlerId && midExchange) {
      // It left mid-exchange: release the session (an open transaction is rolled back by the library).
      midExchange = false;
      void queue.processQueue();
    }
  };
}
