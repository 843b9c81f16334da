/**
 * The typed GraphQL contract (docs/api.md, decisions 0022-0024): events as GameEvent types whose
 * fields are their payload's, enums, typed options and audit bundle equal to what REST serves,
 * and the renamed operations, fields and arguments still working under their deprecated names.
 */
import { canonicalJson } from '@fairdice/core/fairness/canonical';
import { verifyBundle } from '@fairdice/core/fairness/verifier';
import { createTestApp, gql, registerPlayer, type TestApp } from '../helpers/app';
import { OPTIONS_FRAGMENT, playToEnd, restClient } from '../helpers/games';

jest.setTimeout(120_000);

const EVENT_FIELDS = `__typename gameId version type seat dataJson commandJson issuedCommand { ...Command } rollNumber prevHash hash createdAt
  ... on GameCreatedEvent { ruleSet family options { ...Options } seatCount visibility creatorId commitment organizerSeed turnTimeLimitSeconds advice }
  ... on SeatTakenEvent { playerId clientSeed hotSeat }
  ... on SeedSetEvent { playerId clientSeed organizer }
  ... on GameStartedEvent { clientSeeds clientSeedsGenerated }
  ... on GameFinishedEvent { standings { seat total rank quit } }
  ... on FiveDiceRolledEvent { dice held rollInTurn reason }
  ... on FiveDiceScoredEvent { box points bonus reason }
  ... on FiveDiceFinishedEvent { standings { seat total rank quit } }
  ... on FarkleRollOffEvent { round seats dice }
  ... on FarkleRolledEvent { dice reason }
  ... on FarkleSetAsideEvent { dice faces points turnPoints hotDice }
  ... on FarkleFarkledEvent { lost streak }
  ... on FarkleBankedEvent { points total }
  ... on FarkleLastRoundEvent { seats }
  ... on FarkleFinishedEvent { reason }`;

const COMMAND_FRAGMENT = `fragment Command on GameCommand { __typename type
  ... on CreateCommand { gameId ruleSet seatCount visibility creatorId hotSeats commitment organizerSeed clientSeeds turnTimeLimitSeconds advice
    options { __typename
      ... on FiveDiceOptionsOverrides { joker jokerAfterSacrifice extraFiveOfAKindBonus upperBonusThreshold upperBonusPoints }
      ... on FarkleOptionsOverrides { entryThreshold target exactTarget threeFarklePenalty straights { low high full } } } }
  ... on JoinCommand { playerId clientSeed seat }
  ... on LeaveCommand { playerId }
  ... on SetSeedCommand { playerId seat clientSeed }
  ... on StartCommand { playerId seeds { seat clientSeed } generatedSeeds { seat clientSeed } }
  ... on CancelCommand { playerId }
  ... on PlayCommand { playerId move { __typename type
    ... on FiveDiceRollMove { hold } ... on FiveDiceScoreMove { box }
    ... on FarkleRollMove { setAside } ... on FarkleSetAsideMove { dice } ... on FarkleBankMove { setAside } } }
  ... on TimeoutCommand { seat }
  ... on AbandonCommand { reason } }`;

/** A typed command without __typename and nulls, enum values as REST spells them. */
function untyped(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(untyped);
  if (value !== null && typeof value === 'object') {
    const { __typename: _name, ...members } = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(members)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, untyped(v)]),
    );
  }
  return restValue(value);
}
/** A stored command without its null members (GraphQL cannot tell null from absent). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, withoutNulls(v)]),
    );
  }
  return value;
}

/** REST value of a GraphQL enum value where they differ (docs/api.md: `-` became `_`). */
const restValue = (v: unknown) => (v === 'five_dice' ? 'five-dice' : v);

/** The payload members a typed event carries, compared with its `data` (derived fields aside). */
function typedFieldsMatchData(e: Record<string, any>): void {
  const {
    __typename,
    gameId,
    version,
    type,
    seat,
    data,
    command,
    dataJson,
    commandJson,
    issuedCommand,
    rollNumber,
    prevHash,
    hash,
    createdAt,
    ...fields
  } = e;
  const derived: Record<string, unknown> = {};
  if (type === 'seedSet') derived.organizer = data.seat === null;
  if (type === 'gameStarted') derived.clientSeedsGenerated = data.clientSeedsGenerated ?? null;
  const expected = Object.fromEntries(
    Object.keys(fields).map((k) => [k, k in derived ? derived[k] : (data[k] ?? null)]),
  );
  const actual = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, restValue(v)]));
  expect({ type, ...actual }).toEqual({ type, ...expected });
}

describe('GraphQL contract: typed events, enums, options and audit; deprecated names', () => {
  let t: TestApp;
  let ada: { id: string; token: string };
  let bob: { id: string; token: string };
  const tokenOf = (id: string) => (id === ada.id ? ada.token : bob.token);
  const ids: Record<'fiveDice' | 'farkle', string> = { fiveDice: '', farkle: '' };

  beforeAll(async () => {
    t = await createTestApp();
    ada = await registerPlayer(t, 'Ada');
    bob = await registerPlayer(t, 'Bob');
    const client = restClient(t);
    for (const [key, input] of [
      ['fiveDice', { ruleSet: 'simple', seats: 2 }],
      ['farkle', { ruleSet: 'farkle', seats: 2, options: { target: 1000, entryThreshold: 0 } }],
    ] as const) {
      const created = await client.create(ada.token, input);
      await client.setSeed(ada.token, created.id, { clientSeed: 'ada-seed' });
      await client.join(bob.token, created.id, {});
      const end = await playToEnd(t, client, await client.start(ada.token, created.id), tokenOf);
      expect(end.status).toBe('finished');
      ids[key] = created.id;
    }
  });
  afterAll(() => t.close());

  it.each([
    ['fiveDice', 'FiveDice'],
    ['farkle', 'Farkle'],
  ] as const)(
    '%s: gameEvents types every event by type and family; typed fields equal the payload',
    async (key, prefix) => {
      const id = ids[key];
      const rest = { items: [] as any[] };
      for (let after: number | null = 0; after !== null;) {
        const page: { items: any[]; nextAfter: number | null } = (
          await t.http().get(`/v1/games/${id}/events?limit=100&after=${after}`).expect(200)
        ).body;
        rest.items.push(...page.items);
        after = page.nextAfter;
      }
      // Pages of 20 (the cost limit counts the dearest event type's fields per item).
      const items: any[] = [];
      for (let after: number | null = 0; after !== null;) {
        const body = await gql(
          t,
          `query($id: ID!, $after: Int) { gameEvents(gameId: $id, after: $after, limit: 20) { items { ${EVENT_FIELDS} } nextAfter } } ${OPTIONS_FRAGMENT} ${COMMAND_FRAGMENT}`,
          { id, after },
        );
        expect(body.errors).toBeUndefined();
        // dataJson / commandJson are the hashed payloads, verbatim: parsed, they are REST's data and command.
        items.push(
          ...body.data.gameEvents.items.map((e: any) => ({
            ...e,
            data: JSON.parse(e.dataJson),
            command: e.commandJson === null ? null : JSON.parse(e.commandJson),
          })),
        );
        after = body.data.gameEvents.nextAfter;
      }
      // The envelope is REST's, byte for byte (data and command are the hashed payloads).
      expect(
        items.map(({ gameId, version, type, seat, data, command, rollNumber, prevHash, hash, createdAt }) => ({
          gameId,
          version,
          type,
          seat,
          data,
          rollNumber,
          command,
          prevHash,
          hash,
          createdAt,
        })),
      ).toEqual(rest.items);
      for (const e of items) {
        expect(e.dataJson).toBe(canonicalJson(e.data));
        // issuedCommand carries every member of the stored command, typed.
        expect(untyped(e.issuedCommand)).toEqual(withoutNulls(e.command));
      }
      const commandTypes = new Set(items.filter((e) => e.issuedCommand).map((e) => e.issuedCommand.__typename));
      expect(commandTypes).toEqual(
        new Set(['CreateCommand', 'SetSeedCommand', 'JoinCommand', 'StartCommand', 'PlayCommand']),
      );
      const lifecycle = [
        'gameCreated',
        'seatTaken',
        'seatLeft',
        'seedSet',
        'gameStarted',
        'gameAbandoned',
        'gameFinished',
      ];
      const upper = (s: string) => s[0].toUpperCase() + s.slice(1);
      for (const e of items) {
        expect(e.__typename).toBe(
          lifecycle.includes(e.type) ? `${upper(e.type)}Event` : `${prefix}${upper(e.type)}Event`,
        );
        typedFieldsMatchData(e);
      }
      expect(new Set(items.map((e) => e.__typename)).size).toBeGreaterThanOrEqual(key === 'farkle' ? 8 : 7);
      // The deprecated name answers the same.
      const old = await gql(
        t,
        `query($id: ID!) { gameHistory(gameId: $id, limit: 100) { items { version type hash data } } }`,
        {
          id,
        },
      );
      // The deprecated data and command still answer the stored payloads.
      expect(old.data.gameHistory.items).toEqual(
        items.map(({ version, type, hash, data }) => ({ version, type, hash, data })),
      );
    },
  );

  it('GameView: enums, and ruleOptions typed with the values of REST options (and of the deprecated options)', async () => {
    for (const id of Object.values(ids)) {
      const rest = (await t.http().get(`/v1/games/${id}`).expect(200)).body;
      const body = await gql(
        t,
        `query($id: ID!) { game(id: $id) { ruleSet family status visibility options ruleOptions { __typename ...Options } } } ${OPTIONS_FRAGMENT}`,
        { id },
      );
      expect(body.errors).toBeUndefined();
      const { ruleOptions, ...g } = body.data.game;
      const { __typename, ...typed } = ruleOptions;
      expect(__typename).toBe(rest.family === 'farkle' ? 'FarkleOptions' : 'FiveDiceOptions');
      expect(typed).toEqual(rest.options);
      expect(g).toEqual({
        ruleSet: rest.ruleSet,
        family: rest.family === 'five-dice' ? 'five_dice' : rest.family,
        status: 'finished',
        visibility: 'public',
        options: rest.options,
      });
    }
    const sets = await gql(t, `{ ruleSets { name family options ruleOptions { ...Options } } } ${OPTIONS_FRAGMENT}`);
    expect(sets.errors).toBeUndefined();
    expect(sets.data.ruleSets.map((r: any) => r.name)).toEqual(['penta', 'simple', 'bonus', 'farkle']);
    for (const r of sets.data.ruleSets) expect(r.ruleOptions).toEqual(r.options);
  });

  it('FiveDiceOptions.jokerAfterSacrifice: false when absent, and set through createGame', async () => {
    const sets = await gql(t, `{ ruleSets { name ruleOptions { ... on FiveDiceOptions { jokerAfterSacrifice } } } }`);
    expect(sets.errors).toBeUndefined();
    expect(sets.data.ruleSets.slice(0, 3)).toEqual(
      ['penta', 'simple', 'bonus'].map((name) => ({ name, ruleOptions: { jokerAfterSacrifice: false } })),
    );
    const created = await gql(
      t,
      `mutation { createGame(input: { ruleSet: penta, seats: 1, options: { joker: freeChoice, jokerAfterSacrifice: true } }) {
        id ruleOptions { ... on FiveDiceOptions { joker jokerAfterSacrifice } } } }`,
      {},
      ada.token,
    );
    expect(created.errors).toBeUndefined();
    expect(created.data.createGame.ruleOptions).toEqual({ joker: 'freeChoice', jokerAfterSacrifice: true });
    const rest = (await t.http().get(`/v1/games/${created.data.createGame.id}`).expect(200)).body;
    expect(rest.options).toMatchObject({ joker: 'freeChoice', jokerAfterSacrifice: true });
  });

  it('auditBundle holds the REST document: rebuilt from its typed fields, it verifies', async () => {
    for (const id of Object.values(ids)) {
      const rest = (await t.http().get(`/v1/games/${id}/audit`).expect(200)).body;
      const body = await gql(
        t,
        `query($id: ID!) { auditBundle(gameId: $id) {
          format formatVersion algorithms { commitment roll eventHash } gameId status
          ruleSet { name family version options { ...Options } } createdAt endedAt commitment organizerSeed
          players { seat playerId displayName hotSeat clientSeed clientSeedGenerated } clientSeeds serverSeed rollCount
          events { gameId version type seat data rollNumber command prevHash hash ... on GameStartedEvent { clientSeeds } }
          chainHead finalStandings { rank seat playerId score quit } generatedAt
          transparencyLog { treeHead { treeSize timestamp rootHash signature logId } entries { leafIndex leaf inclusionProof } } } }
          ${OPTIONS_FRAGMENT}`,
        { id },
      );
      expect(body.errors).toBeUndefined();
      const typed = body.data.auditBundle;
      const rebuilt = {
        ...typed,
        ruleSet: { ...typed.ruleSet, family: restValue(typed.ruleSet.family) },
        events: typed.events.map(({ clientSeeds: _typed, ...envelope }: any) => envelope),
        generatedAt: rest.generatedAt,
      };
      // The log may grow between the two reads (other games): its proofs may differ, its leaves not.
      const leaves = (b: any) => b.transparencyLog.entries.map(({ leafIndex, leaf }: any) => ({ leafIndex, leaf }));
      expect(leaves(rebuilt)).toEqual(leaves(rest));
      expect({ ...rebuilt, transparencyLog: null }).toEqual({ ...rest, transparencyLog: null });
      expect(verifyBundle(rebuilt)).toMatchObject({ ok: true });
    }
    // The deprecated JSON query still answers the document itself.
    const old = await gql(t, 'query($id: ID!) { audit(gameId: $id) }', { id: ids.farkle });
    expect(old.data.audit).toMatchObject({ format: 'fairdice-audit', gameId: ids.farkle });
  });

  it('the deprecated scoreBox (box: String) still scores, like score (box: BoxId)', async () => {
    const client = restClient(t);
    for (const [op, box] of [
      ['score(gameId: $id, box: chance)', 'chance'],
      ['scoreBox(gameId: $id, box: "ones")', 'ones'],
    ] as const) {
      const g = await client.create(ada.token, { ruleSet: 'simple', seats: 1 });
      await client.start(ada.token, g.id);
      await client.move(ada.token, g.id, { action: 'roll', body: {} });
      const body = await gql(
        t,
        `mutation($id: ID!) { ${op} { fiveDice { sheets { boxes { box points } } } } }`,
        { id: g.id },
        ada.token,
      );
      expect(body.errors).toBeUndefined();
      const sheet = Object.values(body.data as Record<string, any>)[0].fiveDice.sheets[0];
      expect(sheet.boxes.filter((b: any) => b.points !== null).map((b: any) => b.box)).toEqual([box]);
    }
  });

  it('introspection marks every renamed name deprecated, with its replacement', async () => {
    const body = await gql(
      t,
      `{ query: __type(name: "Query") { fields(includeDeprecated: true) { name deprecationReason } }
         mutation: __type(name: "Mutation") { fields(includeDeprecated: true) { name deprecationReason } }
         subscription: __type(name: "Subscription") { fields { name args(includeDeprecated: true) { name deprecationReason } } }
         game: __type(name: "GameView") { fields(includeDeprecated: true) { name deprecationReason } }
         ruleSet: __type(name: "RuleSetModel") { fields(includeDeprecated: true) { name deprecationReason } } }`,
    );
    expect(body.errors).toBeUndefined();
    const reason = (type: string, name: string) =>
      body.data[type].fields.find((f: any) => f.name === name)?.deprecationReason;
    expect(reason('query', 'gameHistory')).toMatch(/gameEvents/);
    expect(reason('query', 'gameEvents')).toBeNull();
    expect(reason('query', 'audit')).toMatch(/auditBundle/);
    expect(reason('mutation', 'scoreBox')).toMatch(/score/);
    expect(reason('game', 'options')).toMatch(/ruleOptions/);
    expect(reason('ruleSet', 'options')).toMatch(/ruleOptions/);
    const sub = body.data.subscription.fields.find((f: any) => f.name === 'gameEvents');
    expect(sub.args).toEqual(
      expect.arrayContaining([
        { name: 'after', deprecationReason: null },
        { name: 'afterVersion', deprecationReason: expect.stringMatching(/after/) },
      ]),
    );
  });
});
