/**
 * Stable pagination (decision 0025, docs/api.md#pagination), over REST and GraphQL: every list
 * is paged through while games are created, played and started meanwhile, and no item is
 * skipped or repeated (games, events, webhook deliveries); the inbox shows no game twice in one
 * pass. Bad cursors and limits are 400 with a stable code and store nothing; the deprecated
 * offsets still work.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { chooseMove, poolOf, restClient } from '../helpers/games';
import { startReceiver, waitFor, type Receiver } from '../async/helpers';

jest.setTimeout(120_000);

type P = { id: string; token: string; auth: { authorization: string } };

const GAMES_FIELDS =
  'edges { cursor node { id status awaitingMyMove } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

describe('stable pagination', () => {
  let t: TestApp;
  let receiver: Receiver;
  const players: P[] = [];
  const player = async (name: string) => {
    const p = await registerPlayer(t, name);
    players.push(p);
    return p;
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { JOBS_POLL_INTERVAL_MS: '100' } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  /** A two-seat penta game of `a` (seat 0) and `b`; started unless `open`. `a` moves first. */
  async function game(a: P, b: P, options: { open?: boolean; turnTimeLimitSeconds?: number } = {}): Promise<string> {
    const body: Record<string, unknown> = { ruleSet: 'penta', seats: 2 };
    if (options.turnTimeLimitSeconds) body.turnTimeLimitSeconds = options.turnTimeLimitSeconds;
    const id = (await t.http().post('/v1/games').set(a.auth).send(body).expect(201)).body.id as string;
    if (options.open) return id;
    await t.http().post(`/v1/games/${id}/join`).set(b.auth).send({}).expect(200);
    await t.http().post(`/v1/games/${id}/start`).set(a.auth).send({}).expect(200);
    return id;
  }

  /** One legal move by whoever is to move (a roll or a score). */
  async function move(id: string): Promise<void> {
    const view = (await t.http().get(`/v1/games/${id}`).expect(200)).body;
    const who = players.find((p) => p.id === view.currentPlayerId);
    if (!who || view.status !== 'playing') return;
    await restClient(t).move(who.token, id, chooseMove(view));
  }

  /** A whole turn (roll, maybe re-roll, score) of the player to move. */
  async function turn(id: string): Promise<void> {
    const seat = (await t.http().get(`/v1/games/${id}`).expect(200)).body.currentSeat;
    for (let i = 0; i < 4; i++) {
      const view = (await t.http().get(`/v1/games/${id}`).expect(200)).body;
      if (view.currentSeat !== seat || view.status !== 'playing') return;
      await move(id);
    }
  }

  /** Rows the suite's players own, over every table a list request could write to. */
  async function ownRows(): Promise<number> {
    const ids = players.map((p) => p.id);
    const { rows } = await poolOf(t).query<{ n: string }>(
      `SELECT (SELECT count(*) FROM games WHERE creator_id = ANY($1::uuid[]))
            + (SELECT count(*) FROM game_events e JOIN games g ON g.id = e.game_id WHERE g.creator_id = ANY($1::uuid[]))
            + (SELECT count(*) FROM webhooks WHERE player_id = ANY($1::uuid[]))
            + (SELECT count(*) FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
                WHERE w.player_id = ANY($1::uuid[])) AS n`,
      [ids],
    );
    return Number(rows[0].n);
  }

  /** The REST page at `url` (cursor appended), with its Link header checked against its nextCursor. */
  async function restPage(p: P | null, url: string): Promise<{ body: any; next: string | null }> {
    const r = t.http().get(url);
    const res = await (p ? r.set(p.auth) : r).expect(200);
    // Link may carry other relations too (rel="deprecation" when a deprecated parameter is used).
    const links = ((res.headers.link as string | undefined) ?? '').split(/,\s*(?=<)/).filter(Boolean);
    const nextLink = links.find((l) => l.endsWith('; rel="next"'));
    const nextCursor = Array.isArray(res.body) ? null : res.body.nextCursor;
    if (!Array.isArray(res.body)) {
      // The body and the header name the same next page.
      if (nextCursor === null) expect(nextLink).toBeUndefined();
      else expect(nextLink).toBe(`<${withCursor(url, nextCursor)}>; rel="next"`);
    }
    const next = nextLink ? /^<([^>]+)>; rel="next"$/.exec(nextLink)![1] : null;
    return { body: res.body, next };
  }
  const withCursor = (url: string, cursor: string) => {
    const u = new URL(url, 'http://x');
    u.searchParams.delete('offset');
    u.searchParams.delete('after');
    u.searchParams.set('cursor', cursor);
    return `${u.pathname}${u.search}`;
  };

  type Page = { body: any; next: string | null };
  type GqlBody = Awaited<ReturnType<typeof gql>>;
  const dupes = (ids: string[]) => ids.filter((id, i) => ids.indexOf(id) !== i);

  it('REST games (scope=mine): no game skipped or repeated while games are played, created and started', async () => {
    const ada = await player('Ada');
    const bob = await player('Bob');
    const initial: string[] = [];
    for (let i = 0; i < 7; i++) initial.push(await game(ada, bob, { open: i % 3 === 2 }));
    // Three games created in the same microsecond: the id breaks the tie.
    await poolOf(t).query(
      `UPDATE games SET created_at = (SELECT created_at FROM games WHERE id = $1) WHERE id = ANY($2)`,
      [initial[2], initial.slice(2, 5)],
    );

    const seen: string[] = [];
    const created: string[] = [];
    let url: string | null = '/v1/games?scope=mine&limit=2';
    let pages = 0;
    while (url) {
      // The page is read while other requests change the games (concurrently), then more change.
      const [page]: [Page, ...unknown[]] = await Promise.all([
        restPage(ada, url),
        Promise.all(initial.map((id) => move(id))),
        game(ada, bob).then((id) => created.push(id)),
      ]);
      seen.push(...page.body.items.map((g: any) => g.id));
      for (const id of initial.filter((_, i) => i % 3 === 2)) {
        // Open games get started: their status changes, their place does not.
        const v = (await t.http().get(`/v1/games/${id}`).expect(200)).body;
        if (v.status === 'open') {
          await t.http().post(`/v1/games/${id}/join`).set(bob.auth).send({}).expect(200);
          await t.http().post(`/v1/games/${id}/start`).set(ada.auth).send({}).expect(200);
          break;
        }
      }
      url = page.next;
      pages++;
    }
    expect(dupes(seen)).toEqual([]);
    // Every game that existed when the pass began, once, newest first; games created during the pass are newer.
    expect(seen.filter((id) => initial.includes(id)).sort()).toEqual([...initial].sort());
    expect(seen.filter((id) => !initial.includes(id))).toEqual(seen.slice(0, seen.length - initial.length));
    expect(pages).toBeGreaterThanOrEqual(4);
    // Newest first by (created_at, id): the three tied games in descending id order.
    const tied = seen.filter((id) => initial.slice(2, 5).includes(id));
    expect(tied).toEqual([...initial.slice(2, 5)].sort().reverse());
    const fresh = (await restPage(ada, '/v1/games?scope=mine&limit=100')).body.items.map((g: any) => g.id);
    expect(fresh).toEqual(expect.arrayContaining([...initial, ...created]));
  });

  it('REST games (scope=open, anonymous): my open games each once while others start and new ones open', async () => {
    const cy = await player('Cy');
    const di = await player('Di');
    const open: string[] = [];
    for (let i = 0; i < 5; i++) open.push(await game(cy, di, { open: true }));
    const seen: string[] = [];
    let url: string | null = '/v1/games?scope=open&limit=3';
    let started = 0;
    // Other suites open games too: page until all of ours were seen (they are the newest at the start).
    while (url && !open.every((id) => seen.includes(id))) {
      const page: Page = await restPage(null, url);
      seen.push(...page.body.items.map((g: any) => g.id));
      expect(page.body.items.every((g: any) => g.status === 'open' && g.visibility === 'public')).toBe(true);
      if (started === 0) {
        // The newest open game was shown; it starts (leaves the list) and two games open: nothing shifts.
        await t.http().post(`/v1/games/${open[4]}/join`).set(di.auth).send({}).expect(200);
        await t.http().post(`/v1/games/${open[4]}/start`).set(cy.auth).send({}).expect(200);
        await game(cy, di, { open: true });
        await game(di, cy, { open: true });
        started++;
      }
      url = page.next;
    }
    expect(dupes(seen)).toEqual([]);
    expect(open.every((id) => seen.includes(id))).toBe(true);
  });

  it('GraphQL gamesConnection: edges, pageInfo, and the same stable pass', async () => {
    const ed = await player('Ed');
    const flo = await player('Flo');
    const initial: string[] = [];
    for (let i = 0; i < 5; i++) initial.push(await game(ed, flo));
    const q = `query($after: String) { gamesConnection(scope: mine, first: 2, after: $after) { ${GAMES_FIELDS} } }`;
    const seen: string[] = [];
    let after: string | null = null;
    let first = true;
    for (;;) {
      const [res]: [GqlBody, ...unknown[]] = await Promise.all([
        gql(t, q, { after }, ed.token),
        Promise.all(initial.map((id) => move(id))),
        game(ed, flo),
      ]);
      expect(res.errors).toBeUndefined();
      const c: any = res.data.gamesConnection;
      expect(c.pageInfo.hasPreviousPage).toBe(!first);
      expect(c.pageInfo.startCursor).toBe(c.edges[0]?.cursor ?? null);
      expect(c.pageInfo.endCursor).toBe(c.edges[c.edges.length - 1]?.cursor ?? null);
      seen.push(...c.edges.map((e: any) => e.node.id));
      first = false;
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(dupes(seen)).toEqual([]);
    expect(seen.filter((id) => initial.includes(id)).sort()).toEqual([...initial].sort());

    // An edge's cursor continues right after its node.
    const all = await gql(t, `{ gamesConnection(scope: mine, first: 100) { ${GAMES_FIELDS} } }`, {}, ed.token);
    const edges = all.data.gamesConnection.edges;
    const rest = await gql(t, q, { after: edges[1].cursor }, ed.token);
    expect(rest.data.gamesConnection.edges.map((e: any) => e.node.id)).toEqual(
      edges.slice(2, 4).map((e: any) => e.node.id),
    );
    // scope=open anonymously; scope=mine needs a token.
    const anon = await gql(t, `{ gamesConnection(scope: open, first: 1) { ${GAMES_FIELDS} } }`);
    expect(anon.errors).toBeUndefined();
    const mine = await gql(t, `{ gamesConnection(first: 1) { ${GAMES_FIELDS} } }`);
    expect(mine.errors?.[0].extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it("a game's events, REST and GraphQL: every version once, in order, while the game is played", async () => {
    const gus = await player('Gus');
    const hal = await player('Hal');
    const id = await game(gus, hal);
    for (let i = 0; i < 3; i++) await turn(id);
    const versions: number[] = [];
    let url: string | null = `/v1/games/${id}/events?limit=3`;
    let nextAfter: number | null = null;
    let pages = 0;
    while (url) {
      const [page]: [Page, ...unknown[]] = await Promise.all([
        restPage(null, url),
        pages < 3 ? move(id) : Promise.resolve(),
      ]);
      versions.push(...page.body.items.map((e: any) => e.version));
      if (page.body.nextCursor !== null) expect(page.body.nextAfter).toBe(versions[versions.length - 1]);
      nextAfter = page.body.nextAfter;
      url = page.next;
      pages++;
    }
    expect(nextAfter).toBeNull();
    const last = (await t.http().get(`/v1/games/${id}`).expect(200)).body.version;
    expect(versions).toEqual(Array.from({ length: last }, (_, i) => i + 1));

    const gqlVersions: number[] = [];
    let after: string | null = null;
    let moves = 0;
    for (;;) {
      const [res]: [GqlBody, ...unknown[]] = await Promise.all([
        gql(
          t,
          `query($id: ID!, $after: String) { gameEventsConnection(gameId: $id, first: 4, after: $after) {
            edges { cursor node { __typename version type ... on FiveDiceRolledEvent { dice } } } pageInfo { hasNextPage endCursor } } }`,
          { id, after },
        ),
        moves++ < 3 ? move(id) : Promise.resolve(),
      ]);
      expect(res.errors).toBeUndefined();
      const c: any = res.data.gameEventsConnection;
      gqlVersions.push(...c.edges.map((e: any) => e.node.version));
      // The nodes are the typed GameEvent objects (one type per event type and family).
      for (const e of c.edges) {
        expect(e.node.__typename).toMatch(/Event$/);
        if (e.node.type === 'rolled') expect(e.node).toMatchObject({ __typename: 'FiveDiceRolledEvent' });
        if (e.node.type === 'rolled') expect(e.node.dice).toHaveLength(5);
      }
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    const now = (await t.http().get(`/v1/games/${id}`).expect(200)).body.version;
    expect(gqlVersions).toEqual(Array.from({ length: now }, (_, i) => i + 1));
    // `after` (a version, as the stream takes) still pages the same events.
    const byAfter = (await restPage(null, `/v1/games/${id}/events?after=2&limit=2`)).body;
    expect(byAfter.items.map((e: any) => e.version)).toEqual([3, 4]);
    expect(byAfter.nextAfter).toBe(4);
  });

  it('the inbox: no game twice in one pass; a game that changed meanwhile is left out of later pages', async () => {
    const ivy = await player('Ivy');
    const jo = await player('Jo');
    // Two games with a deadline (most urgent first), four without (least recently changed first).
    const withDeadline = [
      await game(ivy, jo, { turnTimeLimitSeconds: 3600 }),
      await game(ivy, jo, { turnTimeLimitSeconds: 7200 }),
    ];
    const without = [await game(ivy, jo), await game(ivy, jo), await game(ivy, jo), await game(ivy, jo)];
    const order = [...withDeadline, ...without];
    const full = (await restPage(ivy, '/v1/inbox?limit=100')).body.items.map((i: any) => i.gameId);
    expect(full).toEqual(order);

    const seen: string[] = [];
    let url: string | null = '/v1/inbox?limit=1';
    let page = 0;
    while (url) {
      const res: Page = await restPage(ivy, url);
      seen.push(...res.body.items.map((i: any) => i.gameId));
      if (page === 2) {
        // After the first no-deadline game was shown: Ivy plays it and Jo answers, so it waits
        // on Ivy again and now sorts last; Ivy also plays a game not shown yet (it leaves).
        await turn(without[0]);
        await turn(without[0]);
        await turn(without[2]);
      }
      url = res.next;
      page++;
    }
    expect(dupes(seen)).toEqual([]);
    expect(seen).toEqual([withDeadline[0], withDeadline[1], without[0], without[1], without[3]]);
    // A fresh pass shows the game that came back, in its new place.
    const again = (await restPage(ivy, '/v1/inbox?limit=100')).body.items.map((i: any) => i.gameId);
    expect(again).toEqual([withDeadline[0], withDeadline[1], without[1], without[3], without[0]]);

    // GraphQL inboxConnection: the same pass, page by page.
    const gqlSeen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const res: GqlBody = await gql(
        t,
        `query($after: String) { inboxConnection(first: 2, after: $after) {
          edges { cursor node { gameId deadline } } pageInfo { hasNextPage endCursor } } }`,
        { after },
        ivy.token,
      );
      expect(res.errors).toBeUndefined();
      const c: any = res.data.inboxConnection;
      gqlSeen.push(...c.edges.map((e: any) => e.node.gameId));
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(gqlSeen).toEqual(again);
  });

  it('webhook deliveries, REST (Link header) and GraphQL: none skipped or repeated while more are made', async () => {
    const kit = await player('Kit');
    const lee = await player('Lee');
    const reg = await t.http().post('/v1/webhooks').set(kit.auth).send({ url: receiver.url }).expect(201);
    const hook = reg.body.webhook.id as string;
    const id = await game(kit, lee);
    for (let i = 0; i < 6; i++) await turn(id);
    const listAll = async () =>
      (await t.http().get(`/v1/webhooks/${hook}/deliveries?limit=100`).set(kit.auth).expect(200)).body as any[];
    const initial = (
      await waitFor(async () => ((await listAll()).length >= 4 ? listAll() : null), 20_000, 'deliveries')
    ).map((d) => d.id as string);

    const seen: string[] = [];
    let url: string | null = `/v1/webhooks/${hook}/deliveries?limit=2`;
    while (url) {
      const [page]: [Page, ...unknown[]] = await Promise.all([restPage(kit, url), turn(id)]);
      expect(Array.isArray(page.body)).toBe(true);
      seen.push(...page.body.map((d: any) => d.id));
      url = page.next;
    }
    expect(dupes(seen)).toEqual([]);
    expect(initial.every((d) => seen.includes(d))).toBe(true);

    const gqlSeen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const [res]: [GqlBody, ...unknown[]] = await Promise.all([
        gql(
          t,
          `query($id: ID!, $after: String) { webhookDeliveriesConnection(webhookId: $id, first: 3, after: $after) {
            edges { cursor node { id eventType } } pageInfo { hasNextPage endCursor } } }`,
          { id: hook, after },
          kit.token,
        ),
        turn(id),
      ]);
      expect(res.errors).toBeUndefined();
      const c: any = res.data.webhookDeliveriesConnection;
      gqlSeen.push(...c.edges.map((e: any) => e.node.id));
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(dupes(gqlSeen)).toEqual([]);
    expect(initial.every((d) => gqlSeen.includes(d))).toBe(true);
    // The deprecated list field still gives the first page.
    const old = await gql(
      t,
      `query($id: ID!) { webhookDeliveries(webhookId: $id, limit: 2) { id } }`,
      { id: hook },
      kit.token,
    );
    expect(old.data.webhookDeliveries).toHaveLength(2);
    // Another player's webhook is not found, cursor or not.
    const other = await t.http().get(`/v1/webhooks/${hook}/deliveries`).set(lee.auth).expect(404);
    expect(other.body.code).toBe('WEBHOOK_NOT_FOUND');
  });

  describe('bad cursors and limits: 400 with a stable code, nothing stored', () => {
    let mo: P;
    let gameA: string;
    let gameB: string;
    let hook: string;
    const cursors: Record<string, string> = {};

    beforeAll(async () => {
      mo = await player('Mo');
      const ned = await player('Ned');
      hook = (await t.http().post('/v1/webhooks').set(mo.auth).send({ url: receiver.url }).expect(201)).body.webhook.id;
      gameA = await game(mo, ned);
      gameB = await game(mo, ned);
      await game(mo, ned);
      await game(mo, ned, { open: true });
      await game(mo, ned, { open: true });
      await turn(gameA);
      await waitFor(
        async () =>
          (await t.http().get(`/v1/webhooks/${hook}/deliveries`).set(mo.auth)).body.length >= 2 ? true : null,
        20_000,
        'deliveries',
      );
      const next = async (url: string) =>
        /cursor=([^&>]+)/.exec((await t.http().get(url).set(mo.auth).expect(200)).headers.link)![1];
      cursors.mine = await next('/v1/games?scope=mine&limit=1');
      cursors.open = await next('/v1/games?scope=open&limit=1');
      cursors.events = await next(`/v1/games/${gameA}/events?limit=1`);
      cursors.inbox = await next('/v1/inbox?limit=1');
      cursors.deliveries = await next(`/v1/webhooks/${hook}/deliveries?limit=1`);
    });

    const forged = (obj: unknown) => Buffer.from(JSON.stringify(obj)).toString('base64url');
    const lists = () => ({
      mine: '/v1/games?scope=mine',
      open: '/v1/games?scope=open',
      events: `/v1/games/${gameA}/events`,
      inbox: '/v1/inbox',
      deliveries: `/v1/webhooks/${hook}/deliveries`,
    });

    async function refused(url: string, status: number, code: string) {
      const before = await ownRows();
      const res = await t.http().get(url).set(mo.auth);
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status, code });
      expect(res.headers['content-type']).toMatch(/problem\+json/);
      expect(String(res.headers.link ?? '')).not.toContain('rel="next"');
      expect(await ownRows()).toBe(before);
    }

    it('REST: malformed, forged, foreign and over-long cursors are INVALID_CURSOR on every list', async () => {
      for (const [name, base] of Object.entries(lists())) {
        const bad = [
          'not-a-cursor',
          '%%%',
          cursors[name].slice(0, -3),
          forged({ v: 1, l: name, k: [1] }),
          forged({ v: 2, l: 'games:mine', k: [1, gameA] }),
          forged({ v: 1, l: 'games:mine', k: [1, "1' OR '1'='1"] }),
          // a cursor of another list
          name === 'inbox' ? cursors.mine : cursors.inbox,
        ];
        for (const c of bad)
          await refused(
            `${base}${base.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(c)}`,
            400,
            'INVALID_CURSOR',
          );
      }
      // The events cursor of one game does not page another; mine and open are different lists.
      await refused(`/v1/games/${gameB}/events?cursor=${cursors.events}`, 400, 'INVALID_CURSOR');
      await refused(`/v1/games?scope=open&cursor=${cursors.mine}`, 400, 'INVALID_CURSOR');
      await refused(`/v1/games?scope=mine&cursor=${'A'.repeat(513)}`, 400, 'INVALID_CURSOR');
      await refused('/v1/games?scope=mine&cursor=', 400, 'INVALID_CURSOR');
    });

    it('REST: bad limits, offsets, and cursor with offset/after are VALIDATION_FAILED', async () => {
      for (const [name, base] of Object.entries(lists())) {
        const sep = base.includes('?') ? '&' : '?';
        for (const q of ['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'cursor=a&cursor=b'])
          await refused(`${base}${sep}${q}`, 400, 'VALIDATION_FAILED');
        if (name === 'events') await refused(`${base}${sep}after=1&cursor=${cursors.events}`, 400, 'VALIDATION_FAILED');
        if (name === 'mine' || name === 'open' || name === 'inbox') {
          await refused(`${base}${sep}offset=-1`, 400, 'VALIDATION_FAILED');
          await refused(`${base}${sep}offset=0&cursor=${cursors[name]}`, 400, 'VALIDATION_FAILED');
        } else {
          await refused(`${base}${sep}offset=0`, 400, 'VALIDATION_FAILED'); // no offsets where there were none
        }
      }
    });

    it('GraphQL: the same codes in extensions, on every connection', async () => {
      const fields: Record<string, (after: string, first?: number) => string> = {
        mine: (a, f = 1) =>
          `gamesConnection(scope: mine, first: ${f}, after: ${JSON.stringify(a)}) { edges { cursor } }`,
        open: (a, f = 1) =>
          `gamesConnection(scope: open, first: ${f}, after: ${JSON.stringify(a)}) { edges { cursor } }`,
        events: (a, f = 1) =>
          `gameEventsConnection(gameId: "${gameA}", first: ${f}, after: ${JSON.stringify(a)}) { edges { cursor } }`,
        inbox: (a, f = 1) => `inboxConnection(first: ${f}, after: ${JSON.stringify(a)}) { edges { cursor } }`,
        deliveries: (a, f = 1) =>
          `webhookDeliveriesConnection(webhookId: "${hook}", first: ${f}, after: ${JSON.stringify(a)}) { edges { cursor } }`,
      };
      for (const [name, field] of Object.entries(fields)) {
        const before = await ownRows();
        for (const c of [
          'garbage',
          name === 'inbox' ? cursors.mine : cursors.inbox,
          forged({ v: 1, l: name, k: [] }),
        ]) {
          const res = await gql(t, `{ ${field(c)} }`, {}, mo.token);
          expect(res.errors?.[0].extensions).toMatchObject({ code: 'INVALID_CURSOR', status: 400 });
        }
        for (const first of [0, 101, -1]) {
          const res = await gql(t, `{ ${field(cursors[name], first)} }`, {}, mo.token);
          expect(res.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
        }
        // A valid cursor works.
        const ok = await gql(t, `{ ${field(cursors[name])} }`, {}, mo.token);
        expect(ok.errors).toBeUndefined();
        expect(await ownRows()).toBe(before);
      }
    });
  });

  it('the deprecated offsets still work (REST and GraphQL) and are marked deprecated in the contracts', async () => {
    const oz = await player('Oz');
    const pia = await player('Pia');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await game(oz, pia));
    const newestFirst = [...ids].reverse();
    const p1 = (await restPage(oz, '/v1/games?scope=mine&limit=2')).body;
    expect(p1.items.map((g: any) => g.id)).toEqual(newestFirst.slice(0, 2));
    expect(p1.nextOffset).toBe(2);
    const p2 = (await restPage(oz, `/v1/games?scope=mine&limit=2&offset=${p1.nextOffset}`)).body;
    expect(p2.items.map((g: any) => g.id)).toEqual(newestFirst.slice(2));
    expect(p2.nextOffset).toBeNull();
    expect(p2.nextCursor).toBeNull();
    // A cursor page has no offset (its position is not counted); an offset page gives a cursor too.
    const c1 = (await restPage(oz, `/v1/games?scope=mine&limit=1&offset=1`)).body;
    expect(c1.nextOffset).toBe(2);
    const c2 = (await restPage(oz, `/v1/games?scope=mine&limit=1&cursor=${c1.nextCursor}`)).body;
    expect(c2.items.map((g: any) => g.id)).toEqual([newestFirst[2]]);
    expect(c2.nextOffset).toBeNull();

    // Using the deprecated offset is announced (RFC 9745 Deprecation); a cursor request is not.
    const announced = await t.http().get('/v1/games?scope=mine&limit=1&offset=1').set(oz.auth).expect(200);
    expect(announced.headers.deprecation).toMatch(/^@\d+$/);
    expect(announced.headers.link).toContain('rel="deprecation"');
    expect(announced.headers.link).toContain('rel="next"');
    const quiet = await t.http().get(`/v1/games?scope=mine&limit=1&cursor=${c1.nextCursor}`).set(oz.auth).expect(200);
    expect(quiet.headers.deprecation).toBeUndefined();
    const inbox = (await restPage(oz, '/v1/inbox?limit=2&offset=1')).body;
    expect(inbox.items.map((i: any) => i.gameId)).toEqual(ids.slice(1));
    const g2 = await gql(
      t,
      '{ myGames(limit: 2, offset: 1) { items { id } nextOffset } inbox(limit: 1, offset: 2) { items { gameId } nextOffset } }',
      {},
      oz.token,
    );
    expect(g2.data.myGames).toEqual({ items: newestFirst.slice(1).map((id) => ({ id })), nextOffset: null });
    expect(g2.data.inbox).toEqual({ items: [{ gameId: ids[2] }], nextOffset: null });
    const bad = await gql(t, '{ myGames(offset: -1) { items { id } } }', {}, oz.token);
    expect(bad.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED' });

    const root = join(__dirname, '..', '..');
    const spec = JSON.parse(readFileSync(join(root, 'openapi', 'openapi.json'), 'utf8'));
    for (const path of ['/v1/games', '/v1/inbox']) {
      const params = spec.paths[path].get.parameters as any[];
      expect(params.find((p) => p.name === 'offset')).toMatchObject({ in: 'query', deprecated: true });
      expect(params.find((p) => p.name === 'cursor')).toMatchObject({ in: 'query' });
    }
    const sdl = readFileSync(join(root, 'src', 'schema.gql'), 'utf8');
    for (const field of ['myGames', 'openGames', 'inbox', 'webhookDeliveries'])
      expect(sdl).toMatch(new RegExp(`\\n  ${field}\\([^\\n]*\\): [^\\n]* @deprecated\\(reason: "[^"]+"\\)`));
  });
});
