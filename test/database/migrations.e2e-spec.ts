/**
 * The migrations, applied by our migrate step to an EMPTY database, produce the schema the
 * Prisma client expects, and are recorded exactly as `prisma migrate deploy` records them.
 * Runs on PostgreSQL (DATABASE_URL set: a separate fresh database on that server) and on the
 * embedded PGlite (a second in-memory instance).
 */
import { randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { findMigrationsDir, migrate, readMigrations, sha256Hex } from '../../src/database/migrate';
import { Prisma } from '../../src/generated/prisma/client';
import {
  createFreshDatabase,
  createTestPool,
  type FreshDatabase,
  testDatabaseUrl,
  testDbKind,
} from '../helpers/database';
import { createTestPrisma, type TestPrisma } from '../helpers/test-prisma';

jest.setTimeout(60_000);

const kind = testDbKind();
/** Server to create the fresh database on (PostgreSQL), or undefined = new PGlite. */
const serverUrl = kind === 'postgres' ? testDatabaseUrl() : undefined;
const migrationsDir = findMigrationsDir();
const files = readMigrations(migrationsDir);

async function query<T extends object = any>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe(`migrations on an empty ${kind} database`, () => {
  let db: FreshDatabase;
  let firstRun: { applied: string[] };
  const logLines: string[] = [];

  beforeAll(async () => {
    db = await createFreshDatabase(serverUrl, 'migrations');
    firstRun = await migrate(db.url, { log: (l) => logLines.push(l) });
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('finds at least the initial migration, with a postgresql migration_lock.toml', () => {
    expect(files.length).toBeGreaterThanOrEqual(1);
    expect(readFileSync(join(migrationsDir, 'migration_lock.toml'), 'utf8')).toMatch(/provider = "postgresql"/);
  });

  it('applies every migration, in directory order', () => {
    expect(firstRun.applied).toEqual(files.map((f) => f.name));
    expect(logLines.some((l) => l.includes(files[0].name))).toBe(true);
  });

  it('records them in _prisma_migrations as prisma migrate deploy does', async () => {
    const rows = await query(
      db.url,
      `SELECT id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count
         FROM _prisma_migrations ORDER BY started_at, migration_name`,
    );
    expect(rows).toHaveLength(files.length);
    rows.forEach((row, i) => {
      const file = files[i];
      expect(row.migration_name).toBe(file.name);
      expect(row.checksum).toBe(sha256Hex(readFileSync(join(migrationsDir, file.name, 'migration.sql'))));
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.started_at).toBeInstanceOf(Date);
      expect(row.finished_at.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
      expect(row.rolled_back_at).toBeNull();
      expect(row.logs).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    });
  });

  it("creates _prisma_migrations with Prisma's column types", async () => {
    const cols = await query(
      db.url,
      `SELECT column_name, data_type, character_maximum_length, is_nullable, column_default
         FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(cols.map((c) => [c.column_name, c.data_type, c.character_maximum_length, c.is_nullable])).toEqual([
      ['id', 'character varying', 36, 'NO'],
      ['checksum', 'character varying', 64, 'NO'],
      ['finished_at', 'timestamp with time zone', null, 'YES'],
      ['migration_name', 'character varying', 255, 'NO'],
      ['logs', 'text', null, 'YES'],
      ['rolled_back_at', 'timestamp with time zone', null, 'YES'],
      ['started_at', 'timestamp with time zone', null, 'NO'],
      ['applied_steps_count', 'integer', null, 'NO'],
    ]);
  });

  it('leaves free space in the pages of games, for HOT updates of the row every command updates', async () => {
    const rows = await query(db.url, `SELECT reloptions FROM pg_class WHERE relname = 'games' AND relkind = 'r'`);
    expect(rows[0].reloptions).toContain('fillfactor=80');
  });

  it('is a no-op the second time', async () => {
    const before = await query(db.url, 'SELECT id, finished_at FROM _prisma_migrations ORDER BY id');
    await expect(migrate(db.url)).resolves.toEqual({ applied: [] });
    const after = await query(db.url, 'SELECT id, finished_at FROM _prisma_migrations ORDER BY id');
    expect(after).toEqual(before);
  });

  describe('with a copy of the migrations directory', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'fairdice-migrations-'));
      cpSync(migrationsDir, dir, { recursive: true });
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('refuses to run when an applied migration was modified', async () => {
      appendFileSync(join(dir, files[0].name, 'migration.sql'), '\n-- edited after the fact\n');
      await expect(migrate(db.url, { migrationsDir: dir })).rejects.toThrow(
        new RegExp(`modified after being applied: ${files[0].name} \\(database [0-9a-f]{64}, file [0-9a-f]{64}\\)`),
      );
    });

    it('accepts the same migration with CRLF line endings (as Prisma does)', async () => {
      const path = join(dir, files[0].name, 'migration.sql');
      writeFileSync(path, readFileSync(path, 'utf8').replace(/\n/g, '\r\n'));
      await expect(migrate(db.url, { migrationsDir: dir })).resolves.toEqual({ applied: [] });
    });

    it('rolls back a failing migration entirely and records nothing', async () => {
      const name = '29991231000000_broken';
      mkdirSync(join(dir, name));
      writeFileSync(
        join(dir, name, 'migration.sql'),
        'CREATE TABLE "half_done" ("id" INTEGER);\nSELECT * FROM "no_such_table";\n',
      );
      await expect(migrate(db.url, { migrationsDir: dir })).rejects.toThrow(
        /29991231000000_broken failed and was rolled back/,
      );
      const [{ exists }] = await query(db.url, `SELECT to_regclass('public.half_done') IS NOT NULL AS exists`);
      expect(exists).toBe(false);
      const rows = await query(db.url, 'SELECT 1 FROM _prisma_migrations WHERE migration_name = $1', [name]);
      expect(rows).toHaveLength(0);
    });

    it('applies a new migration added later, and only that one', async () => {
      const name = '29991231000001_added_later';
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'migration.sql'), 'CREATE TABLE "added_later" ("id" INTEGER);\n');
      await expect(migrate(db.url, { migrationsDir: dir })).resolves.toEqual({ applied: [name] });
      await expect(migrate(db.url, { migrationsDir: dir })).resolves.toEqual({ applied: [] });
      // Leave the shared fresh database as the real migrations describe it.
      await query(db.url, 'DROP TABLE "added_later"');
      await query(db.url, 'DELETE FROM _prisma_migrations WHERE migration_name = $1', [name]);
    });
  });

  if (kind === 'postgres') {
    it('serializes concurrent migrators with the advisory lock (each migration applied once)', async () => {
      const other = await createFreshDatabase(serverUrl, 'concurrent');
      try {
        const results = await Promise.all([migrate(other.url), migrate(other.url), migrate(other.url)]);
        const all = results.flatMap((r) => r.applied).sort();
        expect(all).toEqual(files.map((f) => f.name).sort());
        const rows = await query(other.url, 'SELECT migration_name FROM _prisma_migrations');
        expect(rows).toHaveLength(files.length);
      } finally {
        await other.drop();
      }
    });
  }

  describe('Prisma models round-trip', () => {
    let t: TestPrisma;
    beforeAll(() => {
      t = createTestPrisma(db.url);
    });
    afterAll(async () => {
      await t?.close();
    });

    const at = (iso: string) => new Date(iso);

    it('round-trips every model with every field set', async () => {
      const { prisma } = t;
      const creator = {
        id: randomUUID(),
        displayName: 'Ada ✓ «quoted»',
        tokenHash: sha256Hex('token-1'),
        createdAt: at('2026-01-02T03:04:05.678Z'),
        updatedAt: at('2026-01-02T03:04:06.000Z'),
      };
      const other = { ...creator, id: randomUUID(), displayName: 'Bob', tokenHash: sha256Hex('token-2') };
      // @updatedAt is set by the client on write; compare everything else exactly.
      const p1 = await prisma.player.create({ data: creator });
      await prisma.player.create({ data: other });
      expect(await prisma.player.findUniqueOrThrow({ where: { id: creator.id } })).toEqual({
        ...creator,
        updatedAt: p1.updatedAt,
      });
      expect(await prisma.player.findUniqueOrThrow({ where: { tokenHash: creator.tokenHash } })).toMatchObject({
        id: creator.id,
      });

      const tournament = {
        id: randomUUID(),
        organizerId: creator.id,
        name: 'Cup',
        ruleSet: 'penta',
        format: 'duplicate',
        visibility: 'public',
        status: 'running',
        version: 4,
        tournamentSeed: 'enc:v1:k:iv:ct',
        commitment: 'ef'.repeat(32),
        createdAt: at('2026-01-02T03:00:00.000Z'),
        updatedAt: at('2026-01-02T03:01:00.000Z'),
      };
      expect(await prisma.tournament.create({ data: tournament })).toEqual(tournament);
      const tournamentEvent = {
        tournamentId: tournament.id,
        version: 1,
        type: 'tournamentCreated',
        payload: { data: { name: 'Cup' }, command: { type: 'create' } },
        prevHash: 'ef'.repeat(32),
        hash: '01'.repeat(32),
        createdAt: at('2026-01-02T03:00:00.000Z'),
      };
      expect(await prisma.tournamentEvent.create({ data: tournamentEvent })).toEqual(tournamentEvent);

      const game = {
        id: randomUUID(),
        ruleSet: 'five-dice/classic',
        family: 'five-dice',
        options: { rounds: 13, bonus: { threshold: 63, points: 35 }, list: [1, 'two', null, true] },
        seatCount: 2,
        visibility: 'public',
        creatorId: creator.id,
        status: 'playing',
        version: 7,
        currentSeat: 1,
        currentPlayerId: other.id,
        turnTimeLimitSeconds: 90,
        turnDeadline: at('2026-01-02T03:10:00.123Z'),
        serverSeed: 'ab'.repeat(32),
        serverSeedHash: 'cd'.repeat(32),
        organizerSeed: 'organizer',
        standings: [
          { seat: 0, score: 120 },
          { seat: 1, score: 95 },
        ],
        createdAt: at('2026-01-02T03:04:05.000Z'),
        updatedAt: at('2026-01-02T03:04:05.000Z'),
        startedAt: at('2026-01-02T03:05:00.000Z'),
        finishedAt: at('2026-01-02T04:00:00.000Z'),
        tournamentId: tournament.id,
        tournamentRound: 1,
        seedSealed: true,
      };
      const g = await prisma.game.create({ data: game });
      expect(await prisma.game.findUniqueOrThrow({ where: { id: game.id } })).toEqual({
        ...game,
        updatedAt: g.updatedAt,
      });

      const seats = [
        {
          gameId: game.id,
          seat: 0,
          playerId: creator.id,
          hotSeat: false,
          clientSeed: 'c0',
          computerLevel: null,
          joinedAt: at('2026-01-02T03:04:07.000Z'),
        },
        {
          gameId: game.id,
          seat: 1,
          playerId: other.id,
          hotSeat: true,
          clientSeed: null,
          computerLevel: null,
          joinedAt: at('2026-01-02T03:04:08.000Z'),
        },
        {
          gameId: game.id,
          seat: 2,
          playerId: null,
          hotSeat: false,
          clientSeed: null,
          computerLevel: 'optimal',
          joinedAt: at('2026-01-02T03:04:09.000Z'),
        },
      ];
      for (const s of seats) await prisma.gameSeat.create({ data: s });
      expect(await prisma.gameSeat.findMany({ where: { gameId: game.id }, orderBy: { seat: 'asc' } })).toEqual(seats);
      expect(await prisma.gameSeat.findMany({ where: { playerId: other.id } })).toEqual([seats[1]]);

      const event = {
        gameId: game.id,
        version: 1,
        type: 'GameCreated',
        seat: 0,
        payload: { dice: [1, 2, 3, 4, 5], nested: { ok: true }, text: 'é' },
        prevHash: '0'.repeat(64),
        hash: 'e'.repeat(64),
        createdAt: at('2026-01-02T03:04:09.000Z'),
      };
      await prisma.gameEvent.create({ data: event });
      expect(
        await prisma.gameEvent.findUniqueOrThrow({ where: { gameId_version: { gameId: game.id, version: 1 } } }),
      ).toEqual(event);

      const record = {
        playerId: creator.id,
        key: 'idem-1',
        requestHash: 'f'.repeat(64),
        status: 'done',
        responseStatus: 201,
        responseBody: { id: game.id, ok: true },
        createdAt: at('2026-01-02T03:04:10.000Z'),
        expiresAt: at('2026-01-03T03:04:10.000Z'),
      };
      await prisma.idempotencyRecord.create({ data: record });
      expect(
        await prisma.idempotencyRecord.findUniqueOrThrow({
          where: { playerId_key: { playerId: creator.id, key: 'idem-1' } },
        }),
      ).toEqual(record);

      const counter = { key: 'ip:127.0.0.1', windowStart: at('2026-01-02T03:04:00.000Z'), count: 3 };
      await prisma.rateLimitCounter.create({ data: counter });
      expect(
        await prisma.rateLimitCounter.findUniqueOrThrow({
          where: { key_windowStart: { key: counter.key, windowStart: counter.windowStart } },
        }),
      ).toEqual(counter);

      // Relations resolve both ways.
      const withRelations = await prisma.game.findUniqueOrThrow({
        where: { id: game.id },
        include: { creator: true, currentPlayer: true, seats: true, events: true },
      });
      expect(withRelations.creator.id).toBe(creator.id);
      expect(withRelations.currentPlayer?.id).toBe(other.id);
      expect(withRelations.seats).toHaveLength(3);
      expect(withRelations.events).toHaveLength(1);
    });

    it('round-trips the async models (jobs, webhooks, deliveries)', async () => {
      const { prisma } = t;
      const owner = await prisma.player.create({
        data: { id: randomUUID(), displayName: 'Hook', tokenHash: sha256Hex(randomUUID()) },
      });
      const job = {
        queue: 'deadline',
        key: `deadline:${randomUUID()}`,
        payload: { gameId: randomUUID(), version: 3, seat: 1 },
        runAt: at('2026-01-02T03:04:05.000Z'),
        attempts: 2,
        revision: 1,
        lockedBy: 'instance-a',
        lastError: 'boom',
        createdAt: at('2026-01-02T03:00:00.000Z'),
        updatedAt: at('2026-01-02T03:01:00.000Z'),
      };
      const createdJob = await prisma.asyncJob.create({ data: job });
      expect(typeof createdJob.id).toBe('bigint');
      expect(await prisma.asyncJob.findUniqueOrThrow({ where: { key: job.key } })).toEqual({
        ...job,
        id: createdJob.id,
      });

      const hook = {
        id: randomUUID(),
        playerId: owner.id,
        url: 'https://example.test/hook?x=1',
        secret: 'whsec_' + 'A'.repeat(32),
        events: ['turn.started', 'game.finished'],
        description: 'my bot',
        createdAt: at('2026-01-02T03:04:05.000Z'),
      };
      await prisma.webhook.create({ data: hook });
      expect(await prisma.webhook.findUniqueOrThrow({ where: { id: hook.id } })).toEqual(hook);

      const delivery = {
        id: randomUUID(),
        webhookId: hook.id,
        eventType: 'turn.started',
        gameId: randomUUID(),
        gameVersion: 7,
        payload: { type: 'turn.started', data: { seat: 1 } },
        status: 'failed',
        attempts: 8,
        lastStatusCode: 500,
        lastError: 'HTTP 500',
        nextAttemptAt: at('2026-01-02T03:05:00.000Z'),
        createdAt: at('2026-01-02T03:04:06.000Z'),
        deliveredAt: at('2026-01-02T03:06:00.000Z'),
      };
      await prisma.webhookDelivery.create({ data: delivery });
      expect(await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toEqual(delivery);
      const withDeliveries = await prisma.webhook.findUniqueOrThrow({
        where: { id: hook.id },
        include: { deliveries: true, player: true },
      });
      expect(withDeliveries.deliveries).toHaveLength(1);
      expect(withDeliveries.player.id).toBe(owner.id);
    });

    it('round-trips the transparency log models; the log is append-only', async () => {
      const { prisma } = t;
      const leaf = {
        gameId: randomUUID(),
        kind: 2,
        eventVersion: 17,
        value: 'ab'.repeat(32),
        timestampMs: BigInt('1764412867123'),
        leafIndex: null,
        leafHash: null,
        createdAt: at('2026-01-02T03:04:05.000Z'),
      };
      const created = await prisma.transparencyLogLeaf.create({ data: leaf });
      expect(typeof created.id).toBe('bigint');
      expect(await prisma.transparencyLogLeaf.findUniqueOrThrow({ where: { id: created.id } })).toEqual({
        ...leaf,
        id: created.id,
      });
      // the sequencer's one update: index and hash, once
      const integrated = { leafIndex: BigInt(9_007_199_254_740_991), leafHash: 'cd'.repeat(32) };
      await prisma.transparencyLogLeaf.update({ where: { id: created.id }, data: integrated });
      expect(
        await prisma.transparencyLogLeaf.findUniqueOrThrow({
          where: { gameId_kind: { gameId: leaf.gameId, kind: 2 } },
        }),
      ).toEqual({ ...leaf, ...integrated, id: created.id });
      await expect(
        prisma.transparencyLogLeaf.update({ where: { id: created.id }, data: { leafIndex: BigInt(1) } }),
      ).rejects.toThrow();
      await expect(prisma.transparencyLogLeaf.delete({ where: { id: created.id } })).rejects.toThrow();
      // (Prisma reports the trigger's restrict_violation as a constraint error; the row is unchanged)
      expect(await prisma.transparencyLogLeaf.findUniqueOrThrow({ where: { id: created.id } })).toEqual({
        ...leaf,
        ...integrated,
        id: created.id,
      });

      const node = { level: 3, idx: BigInt(12), hash: 'ef'.repeat(32) };
      await prisma.transparencyLogNode.create({ data: node });
      expect(
        await prisma.transparencyLogNode.findUniqueOrThrow({ where: { level_idx: { level: 3, idx: BigInt(12) } } }),
      ).toEqual(node);
      await expect(
        prisma.transparencyLogNode.update({
          where: { level_idx: { level: 3, idx: BigInt(12) } },
          data: { hash: '00' },
        }),
      ).rejects.toThrow();

      const head = {
        treeSize: BigInt(13),
        timestampMs: BigInt('1764412901000'),
        rootHash: '12'.repeat(32),
        signature: '34'.repeat(64),
        logId: '56'.repeat(32),
        createdAt: at('2026-01-02T03:04:06.000Z'),
      };
      await prisma.transparencyTreeHead.create({ data: head });
      expect(await prisma.transparencyTreeHead.findUniqueOrThrow({ where: { treeSize: BigInt(13) } })).toEqual(head);
      await expect(prisma.transparencyTreeHead.delete({ where: { treeSize: BigInt(13) } })).rejects.toThrow();
      expect(await prisma.transparencyLogNode.count({ where: { level: 3, idx: BigInt(12), hash: node.hash } })).toBe(1);
      expect(await prisma.transparencyTreeHead.count({ where: { treeSize: BigInt(13) } })).toBe(1);
    });

    it('round-trips the account models (docs/accounts.md); account_events is append-only', async () => {
      const { prisma } = t;
      const player = await prisma.player.create({
        data: { id: randomUUID(), displayName: 'Ada', tokenHash: sha256Hex('account-player') },
      });
      const account = {
        playerId: player.id,
        username: 'Ada_L',
        usernameKey: 'ada_l',
        passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
        version: 2,
        createdAt: at('2026-01-02T03:04:05.000Z'),
        updatedAt: at('2026-01-02T03:04:06.000Z'),
      };
      await prisma.account.create({ data: account });
      expect(await prisma.account.findUniqueOrThrow({ where: { usernameKey: 'ada_l' } })).toEqual(account);
      const event = {
        accountId: player.id,
        version: 1,
        type: 'usernameClaimed',
        payload: { data: { username: 'Ada_L' }, command: null },
        createdAt: at('2026-01-02T03:04:05.000Z'),
      };
      await prisma.accountEvent.create({ data: event });
      expect(
        await prisma.accountEvent.findUniqueOrThrow({
          where: { accountId_version: { accountId: player.id, version: 1 } },
        }),
      ).toEqual(event);
      await expect(
        prisma.accountEvent.delete({ where: { accountId_version: { accountId: player.id, version: 1 } } }),
      ).rejects.toThrow();
      const passkey = {
        credentialId: 'Y3JlZA',
        accountId: player.id,
        name: 'Laptop',
        publicKey: 'cGs',
        counter: BigInt(7),
        transports: ['internal', 'hybrid'],
        createdAt: at('2026-01-02T03:04:05.000Z'),
        lastUsedAt: at('2026-01-02T03:05:05.000Z'),
      };
      await prisma.accountPasskey.create({ data: passkey });
      expect(await prisma.accountPasskey.findUniqueOrThrow({ where: { credentialId: 'Y3JlZA' } })).toEqual(passkey);
      const session = {
        id: randomUUID(),
        playerId: player.id,
        tokenHash: sha256Hex('session-1'),
        label: 'Phone',
        scopes: ['*'],
        address: '203.0.113.9',
        createdAt: at('2026-01-02T03:04:05.000Z'),
        lastUsedAt: at('2026-01-02T03:04:07.000Z'),
        revokedAt: null,
        kind: 'personal',
        expiresAt: at('2026-02-02T03:04:05.000Z'),
        clientId: null,
      };
      await prisma.session.create({ data: session });
      expect(await prisma.session.findUniqueOrThrow({ where: { tokenHash: session.tokenHash } })).toEqual(session);
      const defaults = await prisma.session.create({
        data: { id: randomUUID(), playerId: player.id, tokenHash: sha256Hex('session-2'), label: 'Tablet' },
      });
      expect(defaults).toMatchObject({ scopes: ['*'], kind: 'session', expiresAt: null, clientId: null });
      await expect(
        prisma.session.create({
          data: { id: randomUUID(), playerId: player.id, tokenHash: sha256Hex('session-3'), label: 'x', kind: 'other' },
        }),
      ).rejects.toThrow();
      const challenge = {
        challengeHash: sha256Hex('challenge'),
        purpose: 'register',
        playerId: player.id,
        expiresAt: at('2026-01-02T03:09:05.000Z'),
      };
      await prisma.webauthnChallenge.create({ data: challenge });
      expect(
        await prisma.webauthnChallenge.findUniqueOrThrow({ where: { challengeHash: challenge.challengeHash } }),
      ).toEqual(challenge);
      const failure = {
        key: 'account:ada_l',
        failures: 6,
        lockedUntil: at('2026-01-02T03:05:05.000Z'),
        updatedAt: at('2026-01-02T03:04:05.000Z'),
      };
      await prisma.signInFailure.create({ data: failure });
      expect(await prisma.signInFailure.findUniqueOrThrow({ where: { key: failure.key } })).toEqual(failure);
      const line = await prisma.securityLogEntry.create({
        data: { playerId: player.id, type: 'signIn', address: '203.0.113.9', detail: { method: 'password' } },
      });
      expect(typeof line.id).toBe('bigint');
      expect(await prisma.securityLogEntry.findUniqueOrThrow({ where: { id: line.id } })).toEqual(line);
    });

    it('round-trips the OAuth models (docs/oauth.md); a code takes S256 only, a refresh token names a session', async () => {
      const { prisma } = t;
      const player = await prisma.player.create({
        data: { id: randomUUID(), displayName: 'OAuth', tokenHash: sha256Hex(`oauth-${randomUUID()}`) },
      });
      const client = {
        id: 'fdc_roundtrip',
        ownerId: player.id,
        name: 'Dice Stats',
        redirectUris: ['https://app.example/callback', 'http://127.0.0.1:8123/cb'],
        createdAt: at('2026-01-02T03:04:05.000Z'),
        deletedAt: at('2026-01-03T03:04:05.000Z'),
      };
      await prisma.oAuthClient.create({ data: client });
      expect(await prisma.oAuthClient.findUniqueOrThrow({ where: { id: client.id } })).toEqual(client);
      const grant = {
        id: randomUUID(),
        clientId: client.id,
        playerId: player.id,
        scopes: ['game:play', 'game:create'],
        createdAt: at('2026-01-02T03:04:06.000Z'),
        revokedAt: at('2026-01-02T04:04:06.000Z'),
      };
      await prisma.oAuthGrant.create({ data: grant });
      expect(await prisma.oAuthGrant.findUniqueOrThrow({ where: { id: grant.id } })).toEqual(grant);
      const code = {
        codeHash: sha256Hex('code-1'),
        clientId: client.id,
        playerId: player.id,
        redirectUri: 'https://app.example/callback',
        scopes: ['game:play'],
        codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        codeChallengeMethod: 'S256',
        expiresAt: at('2026-01-02T03:05:06.000Z'),
        createdAt: at('2026-01-02T03:04:06.000Z'),
        usedAt: at('2026-01-02T03:04:07.000Z'),
        grantId: grant.id,
      };
      await prisma.oAuthCode.create({ data: code });
      expect(await prisma.oAuthCode.findUniqueOrThrow({ where: { codeHash: code.codeHash } })).toEqual(code);
      await expect(
        prisma.oAuthCode.create({ data: { ...code, codeHash: sha256Hex('code-2'), codeChallengeMethod: 'plain' } }),
      ).rejects.toThrow();
      const session = await prisma.session.create({
        data: {
          id: randomUUID(),
          playerId: player.id,
          tokenHash: sha256Hex(`oauth-access-${randomUUID()}`),
          label: 'Dice Stats',
          kind: 'oauth',
          clientId: client.id,
          scopes: ['game:play'],
        },
      });
      const refresh = {
        tokenHash: sha256Hex('refresh-1'),
        grantId: grant.id,
        sessionId: session.id,
        scopes: ['game:play'],
        expiresAt: at('2026-02-02T03:04:06.000Z'),
        createdAt: at('2026-01-02T03:04:06.000Z'),
        usedAt: null,
      };
      await prisma.oAuthRefreshToken.create({ data: refresh });
      expect(await prisma.oAuthRefreshToken.findUniqueOrThrow({ where: { tokenHash: refresh.tokenHash } })).toEqual(
        refresh,
      );
      await expect(
        prisma.oAuthRefreshToken.create({
          data: { ...refresh, tokenHash: sha256Hex('refresh-2'), sessionId: randomUUID() },
        }),
      ).rejects.toThrow();
    });

    it('round-trips the rating models; a game is rated once (unique game id)', async () => {
      const { prisma } = t;
      const player = await prisma.player.create({
        data: { id: randomUUID(), displayName: 'Rated', tokenHash: sha256Hex(`rated-${randomUUID()}`) },
      });
      const game = await prisma.game.create({
        data: {
          id: randomUUID(),
          ruleSet: 'simple',
          family: 'five-dice',
          options: {},
          seatCount: 2,
          visibility: 'public',
          creatorId: player.id,
          status: 'finished',
          serverSeed: 'ab'.repeat(32),
          serverSeedHash: 'cd'.repeat(32),
        },
      });
      const rated = {
        gameId: game.id,
        pool: 'simple',
        finishedAt: at('2026-01-02T04:00:00.123Z'),
        seats: [{ seat: 0, playerId: player.id, total: 200, forfeited: false }],
        ratedAt: at('2026-01-02T04:00:01.000Z'),
      };
      const r = await prisma.ratedGame.create({ data: rated });
      expect(typeof r.seq).toBe('bigint');
      expect(await prisma.ratedGame.findUniqueOrThrow({ where: { gameId: game.id } })).toEqual({
        ...rated,
        seq: r.seq,
      });
      await expect(prisma.ratedGame.create({ data: rated })).rejects.toThrow();
      const rating = {
        playerId: player.id,
        pool: 'simple',
        rating: 1662.3108939062977,
        rd: 290.31896371798047,
        volatility: 0.05999967537233814,
        games: 1,
        wins: 1,
        draws: 0,
        losses: 0,
        lastGameAt: rated.finishedAt,
        updatedAt: at('2026-01-02T04:00:01.000Z'),
      };
      await prisma.rating.create({ data: rating });
      expect(
        await prisma.rating.findUniqueOrThrow({ where: { playerId_pool: { playerId: player.id, pool: 'simple' } } }),
      ).toEqual(rating);
      const update = {
        seq: r.seq,
        playerId: player.id,
        pool: 'simple',
        gameId: game.id,
        ratingBefore: 1500,
        rdBefore: 350,
        volatilityBefore: 0.06,
        ratingAfter: rating.rating,
        rdAfter: rating.rd,
        volatilityAfter: rating.volatility,
        wins: 1,
        draws: 0,
        losses: 0,
        createdAt: at('2026-01-02T04:00:01.000Z'),
      };
      await prisma.ratingUpdate.create({ data: update });
      expect(
        await prisma.ratingUpdate.findUniqueOrThrow({
          where: { gameId_playerId: { gameId: game.id, playerId: player.id } },
        }),
      ).toEqual(update);
      await expect(prisma.ratingUpdate.create({ data: update })).rejects.toThrow();
    });

    it('round-trips the seek models (docs/matchmaking.md); one version per seek event, a status the CHECK knows', async () => {
      const { prisma } = t;
      const player = await prisma.player.create({
        data: { id: randomUUID(), displayName: 'Seeker', tokenHash: sha256Hex(`seek-${randomUUID()}`) },
      });
      const game = await prisma.game.create({
        data: {
          id: randomUUID(),
          ruleSet: 'penta',
          family: 'five-dice',
          options: {},
          seatCount: 2,
          visibility: 'public',
          creatorId: player.id,
          status: 'playing',
          serverSeed: 'ab'.repeat(32),
          serverSeedHash: 'cd'.repeat(32),
        },
      });
      const seek = {
        id: randomUUID(),
        playerId: player.id,
        pool: 'penta',
        seats: 2,
        rated: true,
        ratingMin: 1400,
        ratingMax: 1700,
        turnTimeLimitSeconds: 60,
        status: 'paired',
        gameId: game.id,
        version: 2,
        createdAt: at('2026-12-26T10:00:00.000Z'),
        updatedAt: at('2026-12-26T10:00:05.000Z'),
      };
      await prisma.seek.create({ data: seek });
      expect(await prisma.seek.findUniqueOrThrow({ where: { id: seek.id } })).toEqual(seek);
      const event = {
        seekId: seek.id,
        version: 1,
        type: 'seekCreated',
        payload: { data: { playerId: player.id, pool: 'penta' }, command: null },
        createdAt: at('2026-12-26T10:00:00.000Z'),
      };
      await prisma.seekEvent.create({ data: event });
      expect(
        await prisma.seekEvent.findUniqueOrThrow({ where: { seekId_version: { seekId: seek.id, version: 1 } } }),
      ).toEqual(event);
      await expect(prisma.seekEvent.create({ data: event })).rejects.toThrow();
      await expect(
        prisma.seek.create({ data: { ...seek, id: randomUUID(), status: 'waiting', gameId: null } }),
      ).rejects.toThrow();
      await expect(
        prisma.seek.create({ data: { ...seek, id: randomUUID(), seats: 5, gameId: null } }),
      ).rejects.toThrow();
    });

    it('round-trips the player-event models (docs/async.md, Player events); one source is stored once per player', async () => {
      const { prisma } = t;
      const player = await prisma.player.create({
        data: { id: randomUUID(), displayName: 'Streamer', tokenHash: sha256Hex(`stream-${randomUUID()}`) },
      });
      const head = { playerId: player.id, lastSeq: BigInt(2), prunedThrough: BigInt(1) };
      await prisma.playerEventHead.create({ data: head });
      expect(await prisma.playerEventHead.findUniqueOrThrow({ where: { playerId: player.id } })).toEqual(head);
      const event = {
        playerId: player.id,
        seq: BigInt(2),
        type: 'yourTurn',
        source: 'game:g1:v3',
        data: { gameId: 'g1', version: 3, deadline: null },
        createdAt: at('2026-01-02T03:04:05.000Z'),
      };
      await prisma.playerEvent.create({ data: event });
      expect(
        await prisma.playerEvent.findUniqueOrThrow({
          where: { playerId_seq: { playerId: player.id, seq: BigInt(2) } },
        }),
      ).toEqual(event);
      await expect(prisma.playerEvent.create({ data: { ...event, seq: BigInt(3) } })).rejects.toThrow();
      const settings = {
        playerId: player.id,
        deadlineSoonShare: 0.25,
        pushEvents: ['yourTurn', 'gameFinished'],
        updatedAt: at('2026-01-02T03:04:06.000Z'),
      };
      await prisma.playerEventSettings.create({ data: settings });
      expect(await prisma.playerEventSettings.findUniqueOrThrow({ where: { playerId: player.id } })).toEqual(settings);
      const subscription = {
        id: randomUUID(),
        playerId: player.id,
        endpoint: 'https://push.example.com/send/abc',
        p256dh: 'BPk',
        auth: 'YXV0aA',
        createdAt: at('2026-01-02T03:04:07.000Z'),
      };
      await prisma.pushSubscription.create({ data: subscription });
      expect(await prisma.pushSubscription.findUniqueOrThrow({ where: { id: subscription.id } })).toEqual(subscription);
      await expect(prisma.pushSubscription.create({ data: { ...subscription, id: randomUUID() } })).rejects.toThrow();
    });

    it('round-trips the challenge models (docs/challenges.md); challenge_events is append-only', async () => {
      const { prisma } = t;
      const [ada, bob] = await Promise.all(
        ['Challenger', 'Challenged'].map((name) =>
          prisma.player.create({
            data: { id: randomUUID(), displayName: name, tokenHash: sha256Hex(`${name}-${randomUUID()}`) },
          }),
        ),
      );
      const challenge = {
        id: randomUUID(),
        challengerId: ada.id,
        opponentId: bob.id,
        status: 'accepted',
        version: 2,
        pool: 'farkle',
        rated: true,
        turnTimeLimitSeconds: 120,
        expiresAt: at('2026-01-03T04:00:00.000Z'),
        acceptedBy: bob.id,
        gameId: randomUUID(),
        createdAt: at('2026-01-02T04:00:00.000Z'),
        updatedAt: at('2026-01-02T04:01:00.000Z'),
      };
      await prisma.challenge.create({ data: challenge });
      expect(await prisma.challenge.findUniqueOrThrow({ where: { id: challenge.id } })).toEqual(challenge);
      await expect(
        prisma.challenge.create({ data: { ...challenge, id: randomUUID(), status: 'lost' } }),
      ).rejects.toThrow();
      const event = {
        challengeId: challenge.id,
        version: 1,
        type: 'challengeCreated',
        payload: { data: { message: 'Bonne chance ✓' } },
        createdAt: at('2026-01-02T04:00:00.000Z'),
      };
      await prisma.challengeEvent.create({ data: event });
      const key = { challengeId_version: { challengeId: challenge.id, version: 1 } };
      expect(await prisma.challengeEvent.findUniqueOrThrow({ where: key })).toEqual(event);
      await expect(prisma.challengeEvent.create({ data: event })).rejects.toThrow();
      await expect(prisma.challengeEvent.update({ where: key, data: { type: 'x' } })).rejects.toThrow();
    });

    it('covers every model of the schema (a new model must be added to the round trips above)', () => {
      expect(Object.values(Prisma.ModelName).sort()).toEqual(
        [
          'Account',
          'AccountEvent',
          'AccountPasskey',
          'SecurityLogEntry',
          'Session',
          'OAuthClient',
          'OAuthGrant',
          'OAuthCode',
          'OAuthRefreshToken',
          'SignInFailure',
          'WebauthnChallenge',
          'AsyncJob',
          'Challenge',
          'ChallengeEvent',
          'Game',
          'GameEvent',
          'GameSeat',
          'IdempotencyRecord',
          'Player',
          'PlayerEvent',
          'PlayerEventHead',
          'PlayerEventSettings',
          'PushSubscription',
          'RateLimitCounter',
          'RatedGame',
          'Rating',
          'RatingUpdate',
          'Seek',
          'SeekEvent',
          'Tournament',
          'TournamentEvent',
          'TransparencyLogLeaf',
          'TransparencyLogNode',
          'TransparencyTreeHead',
          'Webhook',
          'WebhookDelivery',
        ].sort(),
      );
    });

    it('fills the defaults and nulls of optional fields', async () => {
      const { prisma } = t;
      const player = await prisma.player.create({
        data: { id: randomUUID(), displayName: 'Min', tokenHash: sha256Hex(randomUUID()) },
      });
      expect(player.createdAt).toBeInstanceOf(Date);
      const game = await prisma.game.create({
        data: {
          id: randomUUID(),
          ruleSet: 'farkle/standard',
          family: 'farkle',
          options: {},
          seatCount: 3,
          visibility: 'private',
          creatorId: player.id,
          status: 'open',
          serverSeed: '00',
          serverSeedHash: '11',
        },
      });
      expect(game).toMatchObject({
        version: 0,
        currentSeat: null,
        currentPlayerId: null,
        turnTimeLimitSeconds: null,
        turnDeadline: null,
        organizerSeed: null,
        standings: null,
        startedAt: null,
        finishedAt: null,
        options: {},
      });
      const seat = await prisma.gameSeat.create({ data: { gameId: game.id, seat: 0 } });
      expect(seat).toMatchObject({ playerId: null, hotSeat: false, clientSeed: null });
      expect(seat.joinedAt).toBeInstanceOf(Date);
      const counter = await prisma.rateLimitCounter.create({ data: { key: 'k', windowStart: new Date() } });
      expect(counter.count).toBe(0);
      const rec = await prisma.idempotencyRecord.create({
        data: { playerId: player.id, key: 'k', requestHash: 'h', status: 'running', expiresAt: new Date() },
      });
      expect(rec.responseStatus).toBeNull();
      expect(rec.responseBody).toBeNull();
    });

    it('lets only one writer append a given (game, version): the unique key', async () => {
      const { prisma } = t;
      const player = await prisma.player.create({
        data: { id: randomUUID(), displayName: 'P', tokenHash: sha256Hex(randomUUID()) },
      });
      const game = await prisma.game.create({
        data: {
          id: randomUUID(),
          ruleSet: 'r',
          family: 'f',
          options: {},
          seatCount: 1,
          visibility: 'public',
          creatorId: player.id,
          status: 'open',
          serverSeed: 's',
          serverSeedHash: 'h',
        },
      });
      const ev = (hash: string) => ({ gameId: game.id, version: 1, type: 'T', payload: {}, prevHash: '0', hash });
      const results = await Promise.allSettled([
        prisma.gameEvent.create({ data: ev('a') }),
        prisma.gameEvent.create({ data: ev('b') }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(rejected.reason).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
      expect(rejected.reason.code).toBe('P2002');
    });

    it('rejects UPDATE and DELETE on game_events (append-only trigger)', async () => {
      const { prisma, pool } = t;
      const player = await prisma.player.create({
        data: { id: randomUUID(), displayName: 'P', tokenHash: sha256Hex(randomUUID()) },
      });
      const game = await prisma.game.create({
        data: {
          id: randomUUID(),
          ruleSet: 'r',
          family: 'f',
          options: {},
          seatCount: 1,
          visibility: 'public',
          creatorId: player.id,
          status: 'open',
          serverSeed: 's',
          serverSeedHash: 'h',
        },
      });
      await prisma.gameEvent.create({
        data: { gameId: game.id, version: 1, type: 'T', payload: { a: 1 }, prevHash: '0', hash: 'x' },
      });

      await expect(pool.query(`UPDATE game_events SET hash = 'y' WHERE game_id = $1`, [game.id])).rejects.toThrow(
        /game_events is append-only: UPDATE is not allowed/,
      );
      await expect(pool.query(`DELETE FROM game_events WHERE game_id = $1`, [game.id])).rejects.toThrow(
        /game_events is append-only: DELETE is not allowed/,
      );
      await expect(
        prisma.gameEvent.update({ where: { gameId_version: { gameId: game.id, version: 1 } }, data: { hash: 'y' } }),
      ).rejects.toThrow();
      await expect(prisma.gameEvent.deleteMany({ where: { gameId: game.id } })).rejects.toThrow();
      // An UPDATE matching no row is fine (row-level trigger), and the event is intact.
      await expect(pool.query(`UPDATE game_events SET hash = 'y' WHERE false`)).resolves.toMatchObject({ rowCount: 0 });
      expect(await prisma.gameEvent.findMany({ where: { gameId: game.id } })).toMatchObject([
        { version: 1, hash: 'x', payload: { a: 1 } },
      ]);
    });
  });
});

describe(`the e2e database prepared by global setup (${kind})`, () => {
  it('is fully migrated', async () => {
    const pool = createTestPool();
    try {
      const { rows } = await pool.query(
        'SELECT migration_name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name',
      );
      expect(rows).toEqual(files.map((f) => ({ migration_name: f.name, checksum: f.checksum })));
    } finally {
      await pool.end();
    }
  });
});
