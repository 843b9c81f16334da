/**
 * Issue 13 item 5: one audit bundle for a whole tournament (GET /v1/tournaments/{id}/audit,
 * docs/fairness.md §11), verified offline by verifyTournamentBundle, which names the first thing
 * that does not check out. Each edit is made the way a forger would: the hash chains and the
 * Merkle root are recomputed after it, so only the check that the edit breaks can catch it.
 */
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { chooseMove, OPTIONS_FRAGMENT } from '../helpers/games';
import { play, waitFor, type P } from './helpers';
import { appendEvent } from '@fairdice/core/fairness/hash-chain';
import { canonicalJson } from '@fairdice/core/fairness/canonical';
import { gamesRoot, verifyTournamentBundle } from '@fairdice/core/fairness/tournament-verifier';
import { runVerifyCommand } from '@fairdice/core/fairness/verify-command';
import { fromHex, logIdOf, logPublicKey, signTreeHead } from '@fairdice/core/fairness/transparency-log';
import { main as fairdiceCli } from '../../src/fairness/cli';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

jest.setTimeout(180_000);

type Bundle = any;

/** Re-chains the tournament's events after an edit (what a forger would do). */
function rechainTournament(b: Bundle): void {
  let prev = b.commitment;
  b.events = b.events.map((e: any) => {
    const h = appendEvent(prev, {
      gameId: b.tournamentId,
      version: e.version,
      type: e.type,
      seat: null,
      data: JSON.parse(e.dataJson),
      rollNumber: null,
      command: e.commandJson === null ? null : JSON.parse(e.commandJson),
    });
    prev = h.hash;
    return { ...e, dataJson: canonicalJson(h.data), prevHash: h.prevHash, hash: h.hash };
  });
}

/** Re-chains one game's events and the games' root after an edit. */
function rechainGame(b: Bundle, game: any): void {
  let prev = game.commitment;
  game.events = game.events.map((e: any) => {
    const { hash: _h, prevHash: _p, ...rest } = e;
    const h = appendEvent(prev, rest);
    prev = h.hash;
    return h;
  });
  game.chainHead = prev;
  game.transparencyLog = null;
  regroot(b);
}

function regroot(b: Bundle): void {
  const places = b.events
    .filter((e: any) => e.type === 'roundStarted')
    .flatMap((e: any) => {
      const d = JSON.parse(e.dataJson);
      return d.games.map((g: any) => ({ ...g, round: d.round }));
    });
  const heads = new Map(b.games.map((g: any) => [g.gameId, g.chainHead]));
  b.gamesRoot = gamesRoot(
    places
      .filter((p: any) => heads.has(p.gameId))
      .map((p: any) => ({ gameId: p.gameId, round: p.round, game: p.game, table: p.table, head: heads.get(p.gameId) })),
  );
}

const copy = (b: Bundle): Bundle => JSON.parse(JSON.stringify(b));

describe('tournament audit bundle (e2e)', () => {
  let t: TestApp;
  let duplicate: Bundle;
  let tables: Bundle;
  let duplicateEntrants: P[];
  const ended: { id: string; organizer: P }[] = [];
  beforeAll(async () => {
    t = await createTestApp({ env: { JOBS_POLL_INTERVAL_MS: '50' } });
  });
  afterAll(() => t?.close());

  async function runTournament(
    body: Record<string, unknown>,
    n: number,
  ): Promise<{ id: string; organizer: P; entrants: P[] }> {
    const organizer = await registerPlayer(t, 'Organizer');
    const entrants = await Promise.all(Array.from({ length: n }, (_, i) => registerPlayer(t, `Entrant ${i + 1}`)));
    const id = (await t.http().post('/v1/tournaments').set(organizer.auth).send(body).expect(201)).body.id;
    for (const [i, e] of entrants.entries())
      await t
        .http()
        .post(`/v1/tournaments/${id}/entrants`)
        .set(e.auth)
        .send({ clientSeed: `seed-${i + 1}` })
        .expect(200);
    // Before the end there is no bundle: a running duplicate round's games are sealed.
    await t.http().post(`/v1/tournaments/${id}/close`).set(organizer.auth).expect(200);
    const early = await t.http().get(`/v1/tournaments/${id}/audit`).set(organizer.auth).expect(409);
    expect(early.body.code).toBe('TOURNAMENT_NOT_ENDED');
    const earlyGql = await gql(
      t,
      'query($id: ID!) { tournamentAuditBundle(tournamentId: $id) { gamesRoot } }',
      { id },
      organizer.token,
    );
    expect(earlyGql.errors?.[0]?.extensions?.code).toBe('TOURNAMENT_NOT_ENDED');
    await t.http().post(`/v1/tournaments/${id}/start`).set(organizer.auth).expect(200);
    const byId = new Map(entrants.map((e) => [e.id, e]));
    const rounds = body.rounds as number;
    for (let round = 1; round <= rounds; round++) {
      const view = await waitFor(
        async () => (await t.http().get(`/v1/tournaments/${id}`).set(organizer.auth).expect(200)).body,
        (v: any) => v.roundDetails.length >= round,
      );
      const entrantById = new Map<number, P>(view.entrants.map((e: any) => [e.number, byId.get(e.playerId)!]));
      for (const g of view.roundDetails[round - 1].games) {
        let game = (await t.http().get(`/v1/games/${g.gameId}`).set(entrantById.get(g.entrants[0])!.auth).expect(200))
          .body;
        if (g.entrants.length === 1) {
          game = await play(t, entrantById.get(g.entrants[0])!, g.gameId, chooseMove);
          continue;
        }
        while (game.status === 'playing') {
          const p = entrantById.get(g.entrants[game.currentSeat])!;
          const m = chooseMove(game);
          const res = await t.http().post(`/v1/games/${g.gameId}/${m.action}`).set(p.auth).send(m.body);
          if (res.status !== 200) throw new Error(`${m.action}: ${res.text}`);
          game = res.body;
        }
      }
    }
    await waitFor(
      async () => (await t.http().get(`/v1/tournaments/${id}`).set(organizer.auth).expect(200)).body,
      (v: any) => v.status === 'finished',
    );
    ended.push({ id, organizer });
    return { id, organizer, entrants };
  }

  it('a duplicate tournament: the bundle verifies (every game, one stream per round, standings, root)', async () => {
    const { id, entrants } = await runTournament(
      { name: 'Audit duplicate', ruleSet: 'simple', format: 'duplicate', maxEntrants: 4, rounds: 1 },
      3,
    );
    duplicateEntrants = entrants;
    duplicate = (await t.http().get(`/v1/tournaments/${id}/audit`).expect(200)).body; // public: anyone
    expect(duplicate.games).toHaveLength(3);
    expect(new Set(duplicate.games.map((g: any) => g.serverSeed)).size).toBe(1);
    const report = verifyTournamentBundle(duplicate);
    expect(report.failure).toBeNull();
    expect(report.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining(['tournament-chain', 'round-seed 1', 'duplicate-stream 1', 'standings', 'games-root']),
    );
    // The forger's tools change nothing by themselves.
    const same = copy(duplicate);
    rechainTournament(same);
    rechainGame(same, same.games[0]);
    expect(verifyTournamentBundle(same).ok).toBe(true);
  });

  it('a tables tournament: the bundle verifies, including the draw', async () => {
    const { id } = await runTournament(
      {
        name: 'Audit tables',
        ruleSet: 'simple',
        format: 'tables',
        maxEntrants: 4,
        rounds: 1,
        tableSizeMin: 2,
        tableSizeMax: 2,
      },
      4,
    );
    tables = (await t.http().get(`/v1/tournaments/${id}/audit`).expect(200)).body;
    const report = verifyTournamentBundle(tables);
    expect(report.failure).toBeNull();
    expect(report.checks.map((c) => c.name)).toContain('draw 1');
  });

  it('GraphQL tournamentAuditBundle holds the REST document: rebuilt from its typed fields, it verifies', async () => {
    const restValue = (v: unknown) => (v === 'five_dice' ? 'five-dice' : v);
    for (const { id } of ended) {
      const rest = (await t.http().get(`/v1/tournaments/${id}/audit`).expect(200)).body;
      const body = await gql(
        t,
        `query($id: ID!) { tournamentAuditBundle(tournamentId: $id) {
          format formatVersion tournamentId commitment tournamentSeed
          events { version type dataJson commandJson prevHash hash }
          games(limit: 4) {
            format formatVersion algorithms { commitment roll eventHash } gameId status
            ruleSet { name family version options { ...Options } } createdAt endedAt commitment organizerSeed
            players { seat playerId displayName hotSeat clientSeed clientSeedGenerated } clientSeeds serverSeed rollCount
            events { gameId version type seat data rollNumber command prevHash hash ... on GameStartedEvent { clientSeeds } }
            chainHead finalStandings { rank seat playerId score quit } generatedAt
            transparencyLog { treeHead { treeSize timestamp rootHash signature logId } entries { leafIndex leaf inclusionProof } } }
          standings { rank tied entrant playerId displayName status totalScore matchPoints bestGame gamesPlayed
            rounds { round score matchPoints games } }
          gamesRoot } }
        ${OPTIONS_FRAGMENT}`,
        { id },
      );
      expect(body.errors).toBeUndefined();
      const typed = body.data.tournamentAuditBundle;
      const rebuilt = {
        ...typed,
        games: typed.games.map((g: any, i: number) => ({
          ...g,
          ruleSet: { ...g.ruleSet, family: restValue(g.ruleSet.family) },
          events: g.events.map(({ clientSeeds: _typed, ...envelope }: any) => envelope),
          generatedAt: rest.games[i].generatedAt,
          // The log may grow between the two reads (other games): its proofs may differ, its leaves not.
          transparencyLog: null,
        })),
      };
      const leaves = (g: any) => g.transparencyLog.entries.map(({ leafIndex, leaf }: any) => ({ leafIndex, leaf }));
      expect(typed.games.map(leaves)).toEqual(rest.games.map(leaves));
      const restWithoutLogs = { ...rest, games: rest.games.map((g: any) => ({ ...g, transparencyLog: null })) };
      expect(rebuilt).toEqual(restWithoutLogs);
      expect(verifyTournamentBundle(rebuilt).failure).toBeNull();
    }
    expect(ended).toHaveLength(2);
    // Pages of games: offset and limit slice the list in order; a bad slice is a coded error.
    const { id } = ended[0];
    const page = await gql(
      t,
      'query($id: ID!) { tournamentAuditBundle(tournamentId: $id) { games(offset: 1, limit: 1) { gameId } } }',
      { id },
    );
    const rest = (await t.http().get(`/v1/tournaments/${id}/audit`).expect(200)).body;
    expect(page.data.tournamentAuditBundle.games).toEqual([{ gameId: rest.games[1].gameId }]);
    for (const slice of ['offset: -1', 'limit: 0', 'limit: 101']) {
      const bad = await gql(
        t,
        `query($id: ID!) { tournamentAuditBundle(tournamentId: $id) { games(${slice}) { gameId } } }`,
        { id },
      );
      expect(bad.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    }
  });

  it('rejects a swapped die in one game, naming the game', () => {
    const b = copy(duplicate);
    const game = b.games[1];
    const rolled = game.events.find((e: any) => e.type === 'rolled');
    rolled.data.dice[0] = (rolled.data.dice[0] % 6) + 1;
    rechainGame(b, game);
    const report = verifyTournamentBundle(b);
    expect(report.ok).toBe(false);
    expect(report.failure?.name).toBe(`game ${game.gameId}`);
  });

  it('rejects a changed draw, naming the draw', () => {
    const b = copy(tables);
    const started = b.events.find((e: any) => e.type === 'roundStarted');
    const d = JSON.parse(started.dataJson);
    const [a, c] = [d.games[0].entrants[0], d.games[1].entrants[0]];
    d.games[0].entrants[0] = c;
    d.games[1].entrants[0] = a;
    started.dataJson = canonicalJson(d);
    // The startRound command too, so that the event still follows from it (tournament-commands).
    started.commandJson = canonicalJson({ ...JSON.parse(started.commandJson), games: d.games });
    rechainTournament(b);
    const report = verifyTournamentBundle(b);
    expect(report.ok).toBe(false);
    expect(report.failure?.name).toBe('draw 1');
  });

  it("rejects a changed entrant's seed, naming the round seed", () => {
    const b = copy(duplicate);
    const reg = b.events.find((e: any) => e.type === 'entrantRegistered');
    const d = JSON.parse(reg.dataJson);
    d.clientSeed = `${d.clientSeed}x`;
    reg.dataJson = canonicalJson(d);
    reg.commandJson = canonicalJson({ ...JSON.parse(reg.commandJson), clientSeed: d.clientSeed });
    rechainTournament(b);
    const report = verifyTournamentBundle(b);
    expect(report.ok).toBe(false);
    expect(report.failure?.name).toBe('round-seed 1');
  });

  it('rejects a dropped game, naming the missing game', () => {
    const b = copy(duplicate);
    const dropped = b.games.splice(2, 1)[0];
    regroot(b);
    const report = verifyTournamentBundle(b);
    expect(report.ok).toBe(false);
    expect(report.failure?.name).toBe('games-complete');
    expect(report.failure?.detail).toContain(dropped.gameId);
  });

  it('rejects a changed Merkle root and changed standings', () => {
    const root = copy(duplicate);
    root.gamesRoot = '0'.repeat(64);
    expect(verifyTournamentBundle(root).failure?.name).toBe('games-root');
    const standings = copy(duplicate);
    standings.standings[0].totalScore += 1;
    expect(verifyTournamentBundle(standings).failure?.name).toBe('standings');
  });

  it('the verify command (fairdice verify, fairdice-verify) takes a tournament bundle: exit 0, or 1 naming the failure', async () => {
    const run = async (bundle: unknown) => {
      const out: string[] = [];
      const code = await runVerifyCommand(['verify', 'bundle.json'], {
        load: () => Promise.resolve(JSON.stringify(bundle)),
        out: (s) => out.push(s),
        err: (s) => out.push(s),
      });
      return { code, text: out.join('\n') };
    };
    const ok = await run(duplicate);
    expect(ok.code).toBe(0);
    expect(ok.text).toContain('VERIFIED');
    const b = copy(duplicate);
    b.games.splice(0, 1);
    regroot(b);
    const bad = await run(b);
    expect(bad.code).toBe(1);
    expect(bad.text).toContain('FAILED: games-complete');
  });

  /** `fairdice verify <file> ...options` (src/fairness/cli.ts's main, in process): its exit code and last line. */
  const cli = async (bundle: unknown, ...options: string[]) => {
    const dir = mkdtempSync(join(tmpdir(), 'fairdice-tournament-'));
    const file = join(dir, 'bundle.json');
    writeFileSync(file, JSON.stringify(bundle));
    const out: string[] = [];
    try {
      const code = await fairdiceCli(
        ['verify', file, ...options],
        (s) => out.push(s),
        (s) => out.push(s),
      );
      return { code, last: out.join('\n').split('\n').at(-1)! };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('issue 24 item 3: --log-key applies to every game: heads re-signed with another key fail, naming the game', async () => {
    const { publicKey } = (await t.http().get('/v1/transparency/tree-head').expect(200)).body;
    expect(verifyTournamentBundle(duplicate, { logKey: publicKey }).failure).toBeNull();
    // A forger's own log: every game's tree head re-signed with another key (the proofs still lead to the root).
    const forged = copy(duplicate);
    const other = fromHex('11'.repeat(32));
    for (const g of forged.games) {
      const { treeSize, timestamp, rootHash } = g.transparencyLog.treeHead;
      g.transparencyLog.treeHead = {
        ...signTreeHead({ treeSize, timestamp, rootHash }, other),
        logId: logIdOf(logPublicKey(other)),
      };
    }
    expect(verifyTournamentBundle(forged).ok).toBe(true); // without the key nothing vouches for the head
    const report = verifyTournamentBundle(forged, { logKey: publicKey });
    expect(report.failure?.name).toBe(`game ${forged.games[0].gameId}`);
    expect(report.failure?.detail).toMatch(/^log-signature: /);
    const run = await cli(forged, '--log-key', publicKey);
    expect(run.code).toBe(1);
    expect(run.last).toBe(`FAILED: game ${forged.games[0].gameId}: ${report.failure!.detail}`);
  });

  it("issue 24 item 3: --commitment must be the tournament's or one of its games'", async () => {
    expect(verifyTournamentBundle(duplicate, { commitment: duplicate.commitment }).failure).toBeNull();
    const game = duplicate.games[1];
    expect(verifyTournamentBundle(duplicate, { commitment: game.commitment.toUpperCase() }).failure).toBeNull();
    const wrong = verifyTournamentBundle(duplicate, { commitment: 'ab'.repeat(32) });
    expect(wrong.failure?.name).toBe('expected-commitment');
    expect(wrong.failure?.detail).toContain('ab'.repeat(32));
    const run = await cli(duplicate, '--commitment', 'ab'.repeat(32));
    expect(run.code).toBe(1);
    expect(run.last).toMatch(/^FAILED: expected-commitment: /);
  });

  it("issue 24 item 3: every --head must be a version of the tournament's log or of a game's log", async () => {
    const tournamentHead = duplicate.events[2].hash;
    const gameHead = duplicate.games[2].events[1].hash;
    expect(verifyTournamentBundle(duplicate, { heads: [tournamentHead, gameHead] }).failure).toBeNull();
    const wrong = verifyTournamentBundle(duplicate, { heads: [tournamentHead, 'cd'.repeat(32)] });
    expect(wrong.failure?.name).toBe('published-head');
    expect(wrong.failure?.detail).toContain('cd'.repeat(32));
    const run = await cli(duplicate, '--head', gameHead, '--head', 'cd'.repeat(32));
    expect(run.code).toBe(1);
    expect(run.last).toMatch(/^FAILED: published-head: the published head c/);
  });

  it('issue 24 item 4: swapped registrations, re-linked, fail: the commands are re-run through the decider', () => {
    const b = copy(duplicate);
    const at = b.events.findIndex((e: any) => e.type === 'entrantRegistered');
    expect(b.events[at + 1].type).toBe('entrantRegistered');
    // Entrant 2's registration first, then entrant 1's; versions follow the new order.
    [b.events[at], b.events[at + 1]] = [b.events[at + 1], b.events[at]];
    b.events.forEach((e: any, i: number) => (e.version = i + 1));
    rechainTournament(b);
    const report = verifyTournamentBundle(b);
    expect(report.failure?.name).toBe('tournament-commands');
    expect(report.failure?.detail).toContain(`event ${at + 1}`);
    // An invented derived field fails too: entrant 1 renumbered 9.
    const renumbered = copy(duplicate);
    const reg = renumbered.events[at];
    reg.dataJson = canonicalJson({ ...JSON.parse(reg.dataJson), number: 9 });
    rechainTournament(renumbered);
    expect(verifyTournamentBundle(renumbered).failure?.name).toBe('tournament-commands');
  });

  it("each entrant's public profile lists the finished tournament with their final rank (REST and GraphQL)", async () => {
    const rows = duplicate.standings as Array<{ playerId: string; rank: number; totalScore: number }>;
    for (const e of duplicateEntrants) {
      const profile = (await t.http().get(`/v1/players/${e.id}`).expect(200)).body;
      const row = rows.find((r) => r.playerId === e.id)!;
      expect(profile.tournaments).toEqual([
        expect.objectContaining({
          tournamentId: duplicate.tournamentId,
          name: 'Audit duplicate',
          ruleSet: 'simple',
          format: 'duplicate',
          rank: row.rank,
          entrants: 3,
          totalScore: row.totalScore,
          status: 'active',
        }),
      ]);
    }
    const body = await gql(
      t,
      'query($id: ID!) { player(id: $id) { tournaments { tournamentId format rank entrants } } }',
      { id: duplicateEntrants[0].id },
    );
    expect(body.data.player.tournaments[0]).toMatchObject({
      tournamentId: duplicate.tournamentId,
      format: 'duplicate',
    });
    // Someone who entered no tournament has none.
    const other = await registerPlayer(t, 'Nobody');
    expect((await t.http().get(`/v1/players/${other.id}`).expect(200)).body.tournaments).toEqual([]);
  });

  it("the rule set's tournament leaderboard counts wins, podiums and tournaments from the final standings", async () => {
    // Every line, by cursor, 2 a page.
    const lines: any[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await t
        .http()
        .get(`/v1/leaderboards/simple/tournaments?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
        .expect(200);
      lines.push(...res.body.items);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(new Set(lines.map((l) => l.playerId)).size).toBe(lines.length);
    // This file's two finished tournaments of simple (3 + 4 entrants, different players).
    const rows = [...duplicate.standings, ...tables.standings] as Array<{
      playerId: string;
      rank: number;
      tied: boolean;
    }>;
    for (const row of rows) {
      const line = lines.find((l) => l.playerId === row.playerId);
      expect(line).toMatchObject({
        tournamentsPlayed: 1,
        // A shared first place is no win (decision 0073).
        wins: row.rank === 1 && !row.tied ? 1 : 0,
        podiums: row.rank <= 3 ? 1 : 0,
        bestRank: row.rank,
      });
    }
    for (let i = 1; i < lines.length; i++) {
      const [a, b] = [lines[i - 1], lines[i]];
      expect(a.wins > b.wins || (a.wins === b.wins && a.podiums >= b.podiums)).toBe(true);
    }
    const body = await gql(
      t,
      '{ tournamentLeaderboard(ruleSet: simple, first: 100) { edges { node { playerId wins } } } }',
    );
    expect(body.data.tournamentLeaderboard.edges).toHaveLength(lines.length);
    // Bad input: an unknown rule set, a cursor of another list.
    expect((await t.http().get('/v1/leaderboards/chess/tournaments').expect(404)).body.code).toBe('RULE_SET_NOT_FOUND');
    const solo = (await t.http().get('/v1/leaderboards/simple/solo?limit=1').expect(200)).body;
    if (solo.nextCursor)
      expect(
        (await t.http().get(`/v1/leaderboards/simple/tournaments?cursor=${solo.nextCursor}`).expect(400)).body.code,
      ).toBe('INVALID_CURSOR');
    expect((await t.http().get('/v1/leaderboards/simple/tournaments?cursor=xyz!').expect(400)).body.code).toBe(
      'INVALID_CURSOR',
    );
  });
});
