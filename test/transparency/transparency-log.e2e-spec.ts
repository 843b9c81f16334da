/**
 * The transparency log through the API (docs/fairness.md §9): every game's commitment, and its
 * final head once ended, is in a signed tree head; proofs verify offline with the pure code
 * (packages/core/src/fairness/transparency-log.ts); the audit bundle carries them and verifyBundle checks them
 * given the log key; concurrent creations get consecutive indexes; bad input gets clear codes and
 * stores nothing.
 */
import { verifyBundle } from '@fairdice/core/fairness/verifier';
import {
  encodeLeaf,
  fromHex,
  leafHash,
  logIdOf,
  logPublicKey,
  merkleRoot,
  toHex,
  verifyConsistency,
  verifyInclusion,
  verifyTreeHeadSignature,
} from '@fairdice/core/fairness/transparency-log';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consistencyMain } from '../../src/fairness/consistency-cli';
import { TransparencyLogService } from '../../src/transparency/transparency-log.service';
import { createTestApp, gql, registerPlayer, testKeys, type TestApp } from '../helpers/app';
import { playToEnd, poolOf, restClient } from '../helpers/games';

jest.setTimeout(180_000);

const logKey = toHex(logPublicKey(fromHex(testKeys().LOG_SIGNING_KEY)));

describe('transparency log (REST and GraphQL)', () => {
  let t: TestApp;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    alice = await registerPlayer(t, 'Alice');
    bob = await registerPlayer(t, 'Bob');
  });
  afterAll(() => t.close());

  /** The game's leaves as stored (other suites share the database: only this game's rows are compared). */
  const leavesOf = async (gameId: string) =>
    (await poolOf(t).query('SELECT * FROM transparency_log_leaves WHERE game_id = $1 ORDER BY kind', [gameId])).rows;

  it('serves a signed tree head with the public key, the same over REST and GraphQL', async () => {
    const head = (await t.http().get('/v1/transparency/tree-head').expect(200)).body;
    expect(head).toMatchObject({ signatureAlgorithm: 'ed25519', publicKey: logKey, logId: logIdOf(fromHex(logKey)) });
    expect(verifyTreeHeadSignature(head, logKey)).toBe(true);
    const g = await gql(
      t,
      `{ transparencyTreeHead { treeSize timestamp rootHash signature signatureAlgorithm publicKey logId } }`,
    );
    expect(g.errors).toBeUndefined();
    expect(g.data.transparencyTreeHead.publicKey).toBe(logKey);
    expect(g.data.transparencyTreeHead.treeSize).toBeGreaterThanOrEqual(head.treeSize);
  });

  it("a new game's commitment is in the log at once: its inclusion proof verifies against a signed head", async () => {
    const client = restClient(t);
    const view = await client.create(alice.token, { ruleSet: 'simple', seats: 1 });
    const proof = (await t.http().get(`/v1/games/${view.id}/log-proof`).expect(200)).body;
    expect(proof.gameId).toBe(view.id);
    expect(proof.entries).toHaveLength(1);
    const [e] = proof.entries;
    expect(e).toMatchObject({ kind: 'created', eventVersion: 0, value: view.commitment });
    const leaf = encodeLeaf({
      kind: 'created',
      timestamp: e.timestamp,
      gameId: view.id,
      eventVersion: 0,
      value: view.commitment,
    });
    expect(e.leaf).toBe(toHex(leaf));
    expect(e.leafHash).toBe(toHex(leafHash(leaf)));
    expect(verifyTreeHeadSignature(proof.treeHead, logKey)).toBe(true);
    expect(
      verifyInclusion(
        e.leafIndex,
        proof.treeHead.treeSize,
        leafHash(leaf),
        e.inclusionProof.map(fromHex),
        fromHex(proof.treeHead.rootHash),
      ),
    ).toBe(true);
    // GraphQL gives the same proof
    const g = await gql(
      t,
      `query($id: ID!) { gameLogProof(gameId: $id) { gameId treeHead { treeSize rootHash } entries { kind leafIndex leaf inclusionProof } } }`,
      { id: view.id },
    );
    expect(g.errors).toBeUndefined();
    expect(g.data.gameLogProof.entries[0]).toEqual({
      kind: 'created',
      leafIndex: e.leafIndex,
      leaf: e.leaf,
      inclusionProof:
        g.data.gameLogProof.treeHead.treeSize === proof.treeHead.treeSize ? e.inclusionProof : expect.any(Array),
    });
  });

  it('an ended game has its final head logged; the bundle carries both proofs and verifies with --log-key; tampering fails', async () => {
    const client = restClient(t);
    let view = await client.create(alice.token, {
      ruleSet: 'farkle',
      seats: 2,
      options: { target: 1500, entryThreshold: 0 },
    });
    view = await client.join(bob.token, view.id, {});
    view = await client.start(alice.token, view.id);
    const end = await playToEnd(t, client, view, (id) => (id === alice.id ? alice.token : bob.token));
    expect(end.status).toBe('finished');
    const bundle = (await t.http().get(`/v1/games/${end.id}/audit`).expect(200)).body;
    expect(bundle.transparencyLog.entries).toHaveLength(2);
    const report = verifyBundle(bundle, { logKey });
    expect(report.ok).toBe(true);
    expect(report.checks.filter((c) => c.name.startsWith('log-')).map((c) => [c.name, c.status])).toEqual([
      ['log-inclusion', 'pass'],
      ['log-signature', 'pass'],
    ]);
    // without a key: the proofs pass, the signature is not vouched for
    const noKey = verifyBundle(bundle);
    expect(noKey.checks.find((c) => c.name === 'log-signature')!.status).toBe('skipped');

    const failsWith = (mutate: (b: any) => void, key: string | undefined = logKey) => {
      const copy = JSON.parse(JSON.stringify(bundle));
      mutate(copy);
      const r = verifyBundle(copy, { logKey: key });
      expect(r.ok).toBe(false);
      return r.checks.filter((c) => c.status === 'fail').map((c) => c.name);
    };
    // another log's key
    expect(failsWith(() => undefined, toHex(logPublicKey(new Uint8Array(32).fill(7))))).toEqual(['log-signature']);
    // a forged signature, a changed tree size
    expect(failsWith((b) => (b.transparencyLog.treeHead.signature = '00'.repeat(64)))).toEqual(['log-signature']);
    expect(failsWith((b) => (b.transparencyLog.treeHead.timestamp += 1))).toEqual(['log-signature']);
    // the ended leaf dropped (a game hidden as "still running"), a proof element changed
    expect(failsWith((b) => b.transparencyLog.entries.pop())).toContain('log-inclusion');
    expect(
      failsWith((b) => {
        const p = b.transparencyLog.entries[0].inclusionProof;
        if (p.length === 0) b.transparencyLog.entries[0].leafIndex += 1;
        else p[0] = 'ff'.repeat(32);
      }),
    ).toContain('log-inclusion');
    // the bundle's proof removed while a key is given; an unknown member
    expect(failsWith((b) => (b.transparencyLog = null))).toEqual(['log-inclusion', 'log-signature']);
    expect(failsWith((b) => (b.transparencyLog.note = 'x'))).toContain('log-inclusion');
  });

  it('consistency proofs between two signed heads verify offline', async () => {
    const first = (await t.http().get('/v1/transparency/tree-head').expect(200)).body;
    const client = restClient(t);
    for (let i = 0; i < 3; i++) await client.create(bob.token, { ruleSet: 'penta', seats: 1 });
    await t.app.get(TransparencyLogService).integrate({ wait: true });
    const second = (await t.http().get('/v1/transparency/tree-head').expect(200)).body;
    expect(second.treeSize).toBeGreaterThanOrEqual(first.treeSize + 3);
    expect(second.timestamp).toBeGreaterThanOrEqual(first.timestamp);
    const c = (
      await t.http().get(`/v1/transparency/consistency?first=${first.treeSize}&second=${second.treeSize}`).expect(200)
    ).body;
    expect(c).toMatchObject({
      firstSize: first.treeSize,
      secondSize: second.treeSize,
      firstRootHash: first.rootHash,
      secondRootHash: second.rootHash,
    });
    expect(
      verifyConsistency(
        first.treeSize,
        second.treeSize,
        fromHex(first.rootHash),
        fromHex(second.rootHash),
        c.proof.map(fromHex),
      ),
    ).toBe(true);
    // a forked old root does not verify
    expect(
      verifyConsistency(
        first.treeSize,
        second.treeSize,
        fromHex('ab'.repeat(32)),
        fromHex(second.rootHash),
        c.proof.map(fromHex),
      ),
    ).toBe(false);
    const g = await gql(
      t,
      `query($a: Int!, $b: Int!) { transparencyConsistency(first: $a, second: $b) { proof secondRootHash } }`,
      {
        a: first.treeSize,
        b: second.treeSize,
      },
    );
    expect(g.data.transparencyConsistency).toEqual({ proof: c.proof, secondRootHash: second.rootHash });
  });

  it('fairdice consistency: an archived head checks against the live log by URL; a forged archive fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fairdice-heads-'));
    const base = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
    await t.app.get(TransparencyLogService).integrate({ wait: true });
    const archived = (await t.http().get('/v1/transparency/tree-head').expect(200)).body;
    writeFileSync(join(dir, 'archived.json'), JSON.stringify(archived));
    await restClient(t).create(alice.token, { ruleSet: 'simple', seats: 1 });
    await t.app.get(TransparencyLogService).integrate({ wait: true });
    const now = (await t.http().get('/v1/transparency/tree-head').expect(200)).body;
    writeFileSync(join(dir, 'now.json'), JSON.stringify(now));
    const proofUrl = `${base}/v1/transparency/consistency?first=${archived.treeSize}&second=${now.treeSize}`;
    const lines: string[] = [];
    const run = (args: string[]) =>
      consistencyMain(
        args,
        (s) => lines.push(s),
        (s) => lines.push(s),
      );
    expect(await run([join(dir, 'archived.json'), join(dir, 'now.json'), proofUrl, '--log-key', logKey])).toBe(0);
    expect(lines.join('\n')).toContain('CONSISTENT');
    // the archive of another history (same size, another root, signed by another key) does not check out
    const forged = { ...archived, rootHash: 'ab'.repeat(32) };
    writeFileSync(join(dir, 'forged.json'), JSON.stringify(forged));
    expect(await run([join(dir, 'forged.json'), join(dir, 'now.json'), proofUrl, '--log-key', logKey])).toBe(1);
    expect(await run([join(dir, 'archived.json'), join(dir, 'now.json'), proofUrl])).toBe(2);
    expect(await run([join(dir, 'missing.json'), join(dir, 'now.json'), proofUrl, '--log-key', logKey])).toBe(2);
  });

  it('bad input gets a clear code and stores nothing', async () => {
    const view = await restClient(t).create(alice.token, { ruleSet: 'simple', seats: 1, visibility: 'private' });
    await t.app.get(TransparencyLogService).integrate({ wait: true });
    const before = await leavesOf(view.id);
    expect(before).toHaveLength(1);
    const size = (await t.http().get('/v1/transparency/tree-head').expect(200)).body.treeSize;
    const problem = async (path: string, status: number, code: string) => {
      const res = await t.http().get(path).expect(status);
      expect(res.body.code).toBe(code);
    };
    await problem(`/v1/transparency/consistency?first=0&second=${size}`, 400, 'LOG_SIZE_OUT_OF_RANGE');
    await problem(`/v1/transparency/consistency?first=-3&second=${size}`, 400, 'VALIDATION_FAILED');
    await problem(`/v1/transparency/consistency?first=2&second=1`, 400, 'LOG_SIZE_OUT_OF_RANGE');
    await problem(`/v1/transparency/consistency?first=1&second=${size + 1000}`, 400, 'LOG_SIZE_OUT_OF_RANGE');
    await problem(`/v1/transparency/consistency?first=abc&second=2`, 400, 'VALIDATION_FAILED');
    await problem(`/v1/transparency/consistency?first=1`, 400, 'VALIDATION_FAILED');
    await problem(`/v1/games/00000000-0000-4000-8000-000000000000/log-proof`, 404, 'GAME_NOT_FOUND');
    await problem(`/v1/games/not-a-uuid/log-proof`, 400, 'VALIDATION_FAILED');
    await problem(`/v1/games/${view.id}/log-proof?treeSize=-1`, 400, 'VALIDATION_FAILED');
    await problem(`/v1/games/${view.id}/log-proof?treeSize=${size + 1000}`, 404, 'GAME_NOT_FOUND'); // private: not seen
    const mine = await t
      .http()
      .get(`/v1/games/${view.id}/log-proof?treeSize=${size + 1000}`)
      .set('authorization', `Bearer ${alice.token}`)
      .expect(404);
    expect(mine.body.code).toBe('LOG_TREE_HEAD_NOT_FOUND');
    await t.http().get(`/v1/games/${view.id}/log-proof`).set('authorization', `Bearer ${alice.token}`).expect(200);
    const g1 = await gql(t, `{ transparencyConsistency(first: 5, second: 1) { proof } }`);
    expect(g1.errors?.[0].extensions?.code).toBe('LOG_SIZE_OUT_OF_RANGE');
    const g2 = await gql(t, `{ transparencyConsistency(first: -1, second: 1) { proof } }`);
    expect(g2.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
    const g3 = await gql(t, `{ gameLogProof(gameId: "00000000-0000-4000-8000-000000000000") { gameId } }`);
    expect(g3.errors?.[0].extensions?.code).toBe('GAME_NOT_FOUND');
    expect(await leavesOf(view.id)).toEqual(before);
  });

  it('concurrent creations through two instances get consecutive indexes, and the root covers them all', async () => {
    const other = await createTestApp();
    try {
      const clients = [restClient(t), restClient(other)];
      const services = [t.app.get(TransparencyLogService), other.app.get(TransparencyLogService)];
      const created = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          clients[i % 2].create(i % 3 === 0 ? bob.token : alice.token, { ruleSet: 'simple', seats: 1 }),
        ).concat(services.flatMap((s) => [s.integrate({ wait: false }), s.integrate({ wait: true })]) as never[]),
      );
      await services[1].integrate({ wait: true });
      // Other suites share the database: check the prefix the latest head covers, which is fixed for good.
      const head = (await other.http().get('/v1/transparency/tree-head').expect(200)).body;
      const { rows } = await poolOf(t).query(
        `SELECT game_id, kind, event_version, value, timestamp_ms, leaf_index, leaf_hash FROM transparency_log_leaves
          WHERE leaf_index < $1 ORDER BY leaf_index`,
        [head.treeSize],
      );
      expect(rows.map((r) => Number(r.leaf_index))).toEqual(rows.map((_, i) => i));
      expect(rows).toHaveLength(head.treeSize);
      const hashes = rows.map((r) =>
        leafHash(
          encodeLeaf({
            kind: r.kind === 1 ? 'created' : 'ended',
            timestamp: Number(r.timestamp_ms),
            gameId: r.game_id,
            eventVersion: r.event_version,
            value: r.value,
          }),
        ),
      );
      expect(rows.map((r) => r.leaf_hash)).toEqual(hashes.map(toHex));
      expect(head.rootHash).toBe(toHex(merkleRoot(hashes)));
      expect(verifyTreeHeadSignature(head, logKey)).toBe(true);
      const ids = created.slice(0, 16).map((v: any) => v.id);
      const logged = new Set(rows.filter((r) => r.kind === 1).map((r) => r.game_id));
      for (const id of ids) expect(logged.has(id)).toBe(true);
      // every signed head's size is distinct and increasing with time
      const heads = (
        await poolOf(t).query('SELECT tree_size, timestamp_ms FROM transparency_tree_heads ORDER BY tree_size')
      ).rows;
      for (let i = 1; i < heads.length; i++)
        expect(Number(heads[i].timestamp_ms)).toBeGreaterThanOrEqual(Number(heads[i - 1].timestamp_ms));
    } finally {
      await other.close();
    }
  });
});
