/**
 * OpenAPI schemas of what the rules engine stores and replays: options per family, one schema per
 * event type and per command, per game family, and the audit bundle. The shapes mirror
 * packages/core/src/rules (game/types.ts, five-dice/types.ts, farkle/types.ts and the options.ts of each family) and
 * packages/core/src/fairness/audit-bundle.ts; the contract tests validate every event, command
 * and bundle the e2e suite produces against them, so a drift fails `npm test`.
 *
 * Events and commands are discriminated by `type` within a family. The families reuse some names
 * with different payloads (`rolled`, `quit`, `finished`; the `roll` move), so a game's events are
 * `FiveDiceGameEvent` or `FarkleGameEvent` according to the game's `family`, and `GameEvent`
 * is the choice of the two (anyOf: a lifecycle event is valid in both).
 */
import { BOX_IDS } from '@fairdice/core/rules/five-dice/types';
import { JOKER_RULES } from '@fairdice/core/rules/five-dice/options';
import { RULE_SET_NAMES } from '@fairdice/core/rules/registry';
import { ADVICE_SETTINGS, COMPUTER_LEVELS } from '@fairdice/core/rules/game/types';
import {
  arrayOf,
  bool,
  closed,
  constant,
  dateTime,
  enumOf,
  hex64,
  int,
  type JsonSchema,
  nullable,
  ref,
  str,
  uuid,
} from './json-schema';

const upper = (s: string) => s[0].toUpperCase() + s.slice(1);

export const GAME_STATUSES = ['open', 'playing', 'finished', 'abandoned'] as const;
export const VISIBILITIES = ['public', 'private'] as const;
export const FAMILIES = ['five-dice', 'farkle'] as const;
const die = int(undefined, { minimum: 1, maximum: 6 });
const seatNo = int('Seat number (from 0).', { minimum: 0, maximum: 7 });
const clientSeed = str('A client seed: 1-128 visible ASCII characters (0x21-0x7E).', {
  minLength: 1,
  maxLength: 128,
  pattern: '^[\\x21-\\x7e]{1,128}$',
});
const timeoutReason = {
  reason: enumOf(
    ['timeout', 'computer', 'autoScore'],
    'Present when the server made this move: timeout (the turn time ran out), computer (a computer seat played it), autoScore (five dice: the player had not scored within autoScoreAfterMs of the last roll).',
  ),
};

/** Named enums shared by every schema that uses them (REST bodies, events, audit). */
const ENUMS: Record<string, JsonSchema> = {
  RuleSetName: enumOf(RULE_SET_NAMES, 'A rule-set preset (GET /v1/rule-sets).'),
  GameFamily: enumOf(FAMILIES, 'The game family a rule set belongs to.'),
  GameStatus: enumOf(GAME_STATUSES, 'open (lobby) | playing | finished | abandoned.'),
  Visibility: enumOf(VISIBILITIES, 'public: listed and readable by anyone; private: only its seats.'),
  TournamentRef: closed(
    {
      id: uuid(),
      format: enumOf(['duplicate', 'tables']),
      round: int('1-based round.', { minimum: 1 }),
      game: int('0-based game of the round.', { minimum: 0 }),
      table: int('0-based table of the draw (0 in duplicate rounds).', { minimum: 0 }),
    },
    {
      description:
        'Games a tournament created: which tournament, round, game and table (docs/tournaments.md). In a duplicate round the dice come from the round seed (docs/fairness.md §10).',
    },
  ),
  AdviceSetting: enumOf(
    ADVICE_SETTINGS,
    'allowed (default): the service gives advice for the game; forbidden: it refuses (ADVICE_FORBIDDEN). It stops the service from helping, not a player from computing advice elsewhere.',
  ),
  BoxId: enumOf(BOX_IDS, 'A box of the five-dice score sheet, in sheet order.'),
  JokerRule: enumOf(JOKER_RULES, 'How a further five of a kind may be entered (docs/rules.md).'),
  ComputerLevel: enumOf(
    COMPUTER_LEVELS,
    'How the computer plays (docs/advice.md, Computer players): optimal (the solvers), standard (the heuristic), beginner (a weak fixed policy).',
  ),
};

const fiveDiceOptionProps = {
  joker: ref('JokerRule'),
  jokerAfterSacrifice: bool(
    'The joker also applies once the five-of-a-kind box holds 0 (without the extra bonus). Absent: false.',
  ),
  extraFiveOfAKindBonus: int('Points for each further five of a kind while its box holds 50 (0 = none).', {
    minimum: 0,
    maximum: 1000,
  }),
  upperBonusThreshold: int('The upper section must reach this sum...', { minimum: 1, maximum: 105 }),
  upperBonusPoints: int('...to earn these points.', { minimum: 0, maximum: 1000 }),
  autoScoreAfterMs: int(
    "Auto-score: the service enters the dice (in the box of the game's computerLevel) when the player has not scored this many milliseconds after the turn's last roll. Absent: off. In overrides, null turns it off.",
    { minimum: 0, maximum: 86400000 },
  ),
};
const straight = (what: string) => nullable(int(`${what}; null: not scored.`, { minimum: 1, maximum: 100000 }));
const straightProps = {
  low: straight('1-2-3-4-5 in one roll'),
  high: straight('2-3-4-5-6 in one roll'),
  full: straight('1-2-3-4-5-6 in one roll'),
};
const farkleOptionProps = (straights: JsonSchema) => ({
  entryThreshold: int('Minimum points of the first banked turn (0 = off).', { minimum: 0, maximum: 100000 }),
  target: int('Banking to this total starts the last round (a multiple of 50).', {
    minimum: 50,
    maximum: 100000,
    multipleOf: 50,
  }),
  exactTarget: bool('The target must be hit exactly; overshooting loses the turn.'),
  threeFarklePenalty: int('Points lost on every third consecutive farkle (0 = off).', { minimum: 0, maximum: 100000 }),
  straights,
});

const OPTIONS: Record<string, JsonSchema> = {
  FiveDiceOptions: closed(fiveDiceOptionProps, {
    optional: ['jokerAfterSacrifice', 'autoScoreAfterMs'],
    description: 'Resolved options of a five-dice game.',
  }),
  FarkleStraights: closed(straightProps, { description: 'Points of the optional straights.' }),
  FarkleOptions: closed(farkleOptionProps(ref('FarkleStraights')), { description: 'Resolved options of a Farkle game.' }),
  GameOptions: {
    description: "A game's resolved options: FiveDiceOptions or FarkleOptions according to its family.",
    oneOf: [ref('FiveDiceOptions'), ref('FarkleOptions')],
  },
  FiveDiceOptionsOverrides: closed({ ...fiveDiceOptionProps, autoScoreAfterMs: nullable(fiveDiceOptionProps.autoScoreAfterMs) }, {
    optional: Object.keys(fiveDiceOptionProps),
    description: "Overrides of a five-dice preset's options (INVALID_OPTIONS names a bad one).",
  }),
  FarkleOptionsOverrides: closed(
    farkleOptionProps(
      closed(straightProps, { optional: Object.keys(straightProps), description: 'Overrides of some straights.' }),
    ),
    {
      optional: ['entryThreshold', 'target', 'exactTarget', 'threeFarklePenalty', 'straights'],
      description: "Overrides of the Farkle preset's options (INVALID_OPTIONS names a bad one).",
    },
  ),
  GameOptionsOverrides: {
    description: 'Overrides of the preset options, for the family of the chosen rule set.',
    anyOf: [ref('FiveDiceOptionsOverrides'), ref('FarkleOptionsOverrides')],
  },
};

const seatStanding = closed(
  { seat: seatNo, total: int('Final total.'), rank: int('1 = first; equal totals share a rank.'), quit: bool() },
  { description: 'Final standing of a seat.' },
);
const seatSeed = closed({ seat: seatNo, clientSeed });

// ---- event payloads (the `data` of each event) --------------------------------------------

interface EventDef {
  type: string;
  /** The envelope's `seat`: a seat number, null, or either. */
  seat: 'seat' | 'null' | 'either';
  data: JsonSchema;
  description: string;
}

const lifecycleEvents: EventDef[] = [
  {
    type: 'gameCreated',
    seat: 'null',
    description: 'The game was created (version 1).',
    data: closed({
      ruleSet: ref('RuleSetName'),
      family: ref('GameFamily'),
      options: ref('GameOptions'),
      seatCount: int(undefined, { minimum: 1, maximum: 8 }),
      visibility: ref('Visibility'),
      creatorId: uuid(),
      commitment: hex64('SHA-256 of the server seed.'),
      organizerSeed: nullable(str('Legacy games only: an organizer seed given at creation.')),
      turnTimeLimitSeconds: nullable(int(undefined, { minimum: 1 })),
      computerLevel: ref('ComputerLevel'),
      tournament: ref('TournamentRef'),
      advice: ref('AdviceSetting'),
      rematchOf: uuid(),
    }, { optional: ['computerLevel', 'tournament', 'advice', 'rematchOf'] }),
  },
  {
    type: 'seatTaken',
    seat: 'seat',
    description: 'A player (or the creator, for a hot seat) took the seat.',
    data: closed(
      {
        playerId: uuid(),
        clientSeed: nullable(clientSeed),
        hotSeat: bool(),
        name: str("A hot seat's own name, given at creation (absent: none; the seat shows its holder's name)."),
      },
      { optional: ['name'] },
    ),
  },
  {
    type: 'computerSeated',
    seat: 'seat',
    description: 'At creation: the service plays this seat, at `level` (no player; its seed is generated at the start).',
    data: closed({ level: ref('ComputerLevel') }),
  },
  {
    type: 'seatLeft',
    seat: 'seat',
    description: 'The player gave up the seat before the start.',
    data: closed({ playerId: uuid() }),
  },
  {
    type: 'seedSet',
    seat: 'either',
    description: "A seat's client seed (seat) or the organizer seed (seat null) was set or replaced.",
    data: closed({ seat: nullable(seatNo), playerId: uuid(), clientSeed }),
  },
  {
    type: 'gameStarted',
    seat: 'null',
    description: 'The game started with these client seeds (in seat order).',
    data: closed(
      {
        clientSeeds: arrayOf(clientSeed, 'The seats’ seeds in seat order.'),
        clientSeedsGenerated: arrayOf(
          bool(),
          'Per seat: true when the service generated the seed at the start. Absent in legacy games.',
        ),
      },
      { optional: ['clientSeedsGenerated'] },
    ),
  },
  {
    type: 'gameAbandoned',
    seat: 'null',
    description: 'The game ended without a result: cancelled by its creator, expired in the lobby or inactive.',
    data: closed({ reason: enumOf(['cancelled', 'expired', 'inactive']) }),
  },
  {
    type: 'gameFinished',
    seat: 'null',
    description: 'The game is over; the final standings.',
    data: closed({ standings: arrayOf(ref('SeatStanding')) }),
  },
];

/** A family event's data is the whole family event (its `type` and `seat` included). */
const familyEvent = (
  type: string,
  seat: EventDef['seat'],
  description: string,
  props: Record<string, JsonSchema>,
): EventDef => ({
  type,
  seat,
  description,
  data: closed(
    { type: constant(type), ...(seat === 'seat' ? { seat: seatNo } : {}), ...props, ...timeoutReason },
    { optional: ['reason'] },
  ),
});

const fiveDiceEvents: EventDef[] = [
  familyEvent('rolled', 'seat', 'The dice were rolled (rollNumber says which roll of the fairness stream).', {
    dice: arrayOf(die, 'All five dice after the roll.', { minItems: 5, maxItems: 5 }),
    held: arrayOf(int(undefined, { minimum: 0, maximum: 4 }), 'Indices kept from the previous roll.'),
    rollInTurn: int('1, 2 or 3.', { minimum: 1, maximum: 3 }),
  }),
  familyEvent('scored', 'seat', 'The dice were entered in a box.', {
    box: ref('BoxId'),
    points: int('Points written into the box.'),
    bonus: int('Extra five-of-a-kind bonus earned by this roll.'),
  }),
  familyEvent('quit', 'seat', 'The seat quit (its total stays; it ranks after the finishers).', {}),
  {
    type: 'finished',
    seat: 'null',
    description: 'The family says the game is over (followed by gameFinished).',
    data: closed(
      { type: constant('finished'), standings: arrayOf(ref('SeatStanding')), ...timeoutReason },
      { optional: ['reason'] },
    ),
  },
];

const farkleEvents: EventDef[] = [
  {
    type: 'rollOff',
    seat: 'null',
    description: 'One round of the who-starts roll-off: dice[i] is the die of seats[i].',
    data: closed({
      type: constant('rollOff'),
      round: int(undefined, { minimum: 1 }),
      seats: arrayOf(seatNo),
      dice: arrayOf(die),
    }),
  },
  familyEvent('turnStarted', 'seat', "The seat's turn began.", {}),
  familyEvent('rolled', 'seat', 'The dice not set aside were rolled.', {
    dice: arrayOf(die, 'The dice of this roll.', { minItems: 1, maxItems: 6 }),
  }),
  familyEvent('setAside', 'seat', 'Scoring dice of the current roll were set aside.', {
    dice: arrayOf(int(undefined, { minimum: 0, maximum: 5 }), 'Indices into the current roll, ascending.'),
    faces: arrayOf(die),
    points: int(),
    turnPoints: int('Turn points after this set-aside.'),
    hotDice: bool('Every die of the turn is set aside: the next roll throws six fresh dice.'),
  }),
  familyEvent('farkled', 'seat', "The roll scored nothing: the turn's points are lost.", {
    lost: int(),
    streak: int('Consecutive farkles of this seat, this one included.'),
  }),
  familyEvent('penalty', 'seat', 'Three-farkle penalty (the total never goes below 0).', {
    points: int('Points actually deducted.'),
    total: int(),
  }),
  familyEvent('banked', 'seat', "The turn's points were banked.", { points: int(), total: int() }),
  familyEvent('busted', 'seat', 'exactTarget: the bank would have overshot the target; the points are lost.', {
    lost: int(),
  }),
  familyEvent('passed', 'seat', 'A timed-out turn that could not be banked ended; its points are lost.', {
    lost: int(),
  }),
  familyEvent('lastRound', 'seat', '`seat` reached the target; `seats` still get one last turn, in order.', {
    seats: arrayOf(seatNo),
  }),
  familyEvent('quit', 'seat', 'The seat quit (turn points given up in `lost`).', { lost: int() }),
  {
    type: 'finished',
    seat: 'null',
    description: 'The family says the game is over (followed by gameFinished).',
    data: closed({
      type: constant('finished'),
      reason: enumOf(['target', 'quit', 'timeout'], 'Why it ended; timeout when a timed-out move ended it.'),
    }),
  },
];

// ---- commands ----------------------------------------------------------------------------

const lifecycleCommands = (family: 'FiveDice' | 'Farkle'): Record<string, JsonSchema> => ({
  create: closed(
    {
      type: constant('create'),
      gameId: uuid(),
      ruleSet: ref('RuleSetName'),
      options: ref(`${family}OptionsOverrides`),
      seatCount: int(undefined, { minimum: 1, maximum: 8 }),
      visibility: ref('Visibility'),
      creatorId: uuid(),
      hotSeats: int(undefined, { minimum: 0, maximum: 7 }),
      hotSeatNames: arrayOf(str('1–40 characters, a visible one, no control characters.'), 'Names of the hot seats in seat order.'),
      rematchOf: uuid(),
      commitment: hex64(),
      organizerSeed: nullable(str('Legacy create commands only.')),
      clientSeeds: arrayOf(clientSeed, 'Legacy create commands only: the creator’s seats’ seeds.'),
      turnTimeLimitSeconds: nullable(int(undefined, { minimum: 1 })),
      computerSeats: arrayOf(
        closed({ seat: seatNo, level: ref('ComputerLevel') }),
        'Seats the service plays, each at its level (seat 1 or later, not a hot seat).',
      ),
      computerLevel: ref('ComputerLevel'),
      tournament: ref('TournamentRef'),
      advice: ref('AdviceSetting'),
    },
    {
      optional: [
        'organizerSeed',
        'clientSeeds',
        'computerSeats',
        'computerLevel',
        'tournament',
        'advice',
        'hotSeatNames',
        'rematchOf',
      ],
      description: 'Create the game.',
    },
  ),
  join: closed(
    { type: constant('join'), playerId: uuid(), clientSeed, seat: seatNo },
    { optional: ['clientSeed', 'seat'], description: 'Take a seat.' },
  ),
  leave: closed({ type: constant('leave'), playerId: uuid() }, { description: 'Give up a seat before the start.' }),
  setSeed: closed(
    { type: constant('setSeed'), playerId: uuid(), seat: nullable(seatNo), clientSeed },
    { description: "Set a seat's seed (seat) or the organizer seed (seat null)." },
  ),
  start: closed(
    {
      type: constant('start'),
      playerId: uuid(),
      seeds: arrayOf(seatSeed, 'Seeds the creator gave with the start.'),
      generatedSeeds: arrayOf(seatSeed, 'Seeds the service generated (absent on legacy start commands).'),
    },
    { optional: ['seeds', 'generatedSeeds'], description: 'Start the game.' },
  ),
  cancel: closed({ type: constant('cancel'), playerId: uuid() }, { description: 'Cancel the game before the start.' }),
  timeout: closed(
    {
      type: constant('timeout'),
      seat: seatNo,
      moves: arrayOf(
        { anyOf: [ref('FiveDiceMove'), ref('FarkleMove')] },
        "The moves the server chose at the game's computer level, in order (absent: the rules' own timeout policy).",
      ),
    },
    { optional: ['moves'], description: "The turn's time ran out: the server completes the turn." },
  ),
  abandon: closed(
    { type: constant('abandon'), reason: enumOf(['expired', 'inactive']) },
    { description: 'The service ended a game nobody plays.' },
  ),
});

const fiveDiceMoves: Record<string, JsonSchema> = {
  roll: closed(
    { type: constant('roll'), hold: arrayOf(int(undefined, { minimum: 0, maximum: 4 }), 'Indices kept.') },
    { optional: ['hold'] },
  ),
  score: closed({ type: constant('score'), box: ref('BoxId') }),
  quit: closed({ type: constant('quit') }),
};
const setAsideIndices = arrayOf(int(undefined, { minimum: 0, maximum: 5 }), 'Indices into the current roll.');
const farkleMoves: Record<string, JsonSchema> = {
  roll: closed({ type: constant('roll'), setAside: setAsideIndices }, { optional: ['setAside'] }),
  setAside: closed({ type: constant('setAside'), dice: setAsideIndices }),
  bank: closed({ type: constant('bank'), setAside: setAsideIndices }, { optional: ['setAside'] }),
  quit: closed({ type: constant('quit') }),
};

/** `name` -> schema map of one discriminated union plus the union itself. */
function union(
  unionName: string,
  members: Record<string, JsonSchema>,
  nameOf: (type: string) => string,
  description: string,
): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  const mapping: Record<string, string> = {};
  for (const [type, schema] of Object.entries(members)) {
    out[nameOf(type)] = schema;
    mapping[type] = `#/components/schemas/${nameOf(type)}`;
  }
  out[unionName] = {
    description,
    oneOf: Object.keys(members).map((t) => ref(nameOf(t))),
    discriminator: { propertyName: 'type', mapping },
  };
  return out;
}

function familySchemas(family: 'FiveDice' | 'Farkle', events: EventDef[], moves: Record<string, JsonSchema>) {
  const familyName = family === 'FiveDice' ? 'five-dice' : 'farkle';
  const schemas: Record<string, JsonSchema> = {};
  Object.assign(
    schemas,
    union(`${family}Move`, moves, (t) => `${family}${upper(t)}Move`, `A ${familyName} move (the \`move\` of a play command).`),
  );
  const commands = {
    ...lifecycleCommands(family),
    play: closed(
      { type: constant('play'), playerId: uuid(), move: ref(`${family}Move`) },
      { description: 'A move by the seat whose turn it is.' },
    ),
    computer: closed(
      { type: constant('computer'), seat: seatNo, level: ref('ComputerLevel'), moves: arrayOf(ref(`${family}Move`)) },
      { description: "A computer seat's turn: the moves the service chose at the seat's level, in order." },
    ),
    ...(family === 'FiveDice'
      ? {
          autoScore: closed(
            { type: constant('autoScore'), seat: seatNo, box: ref('BoxId') },
            { description: 'The player had not scored within autoScoreAfterMs of the last roll: the service scored.' },
          ),
        }
      : {}),
  };
  const commandName = (t: string) =>
    t === 'create' || t === 'play' || t === 'computer' ? `${family}${upper(t)}Command` : `${upper(t)}Command`;
  Object.assign(
    schemas,
    union(`${family}GameCommand`, commands, commandName, `A command of a ${familyName} game (stored on the first event of its batch).`),
  );
  const dataName = (e: EventDef) =>
    lifecycleEvents.includes(e) ? `${upper(e.type)}EventData` : `${family}${upper(e.type)}EventData`;
  for (const e of [...lifecycleEvents, ...events]) schemas[dataName(e)] = e.data;
  for (const audit of [false, true]) {
    const suffix = audit ? 'AuditEvent' : 'Event';
    const members: Record<string, JsonSchema> = {};
    for (const e of [...lifecycleEvents, ...events]) {
      const seat = e.seat === 'seat' ? seatNo : e.seat === 'null' ? { type: 'null' } : nullable(seatNo);
      members[e.type] = closed(
        {
          gameId: uuid(),
          version: int('Position in the game (1, 2, ...): the event version.', { minimum: 1 }),
          type: constant(e.type),
          seat,
          data: ref(dataName(e)),
          rollNumber: nullable(int('Which roll of the fairness stream this event records (from 0).', { minimum: 0 })),
          command: nullable(ref(`${family}GameCommand`)),
          prevHash: hex64('Hash of the previous event (the commitment for the first).'),
          hash: hex64('SHA-256 of the canonical event (docs/fairness.md §4).'),
          ...(audit ? {} : { createdAt: dateTime() }),
        },
        { description: e.description },
      );
    }
    const eventName = (t: string) => {
      const e = [...lifecycleEvents, ...events].find((x) => x.type === t) as EventDef;
      return lifecycleEvents.includes(e) ? `${upper(t)}${family}${suffix}` : `${family}${upper(t)}${suffix}`;
    };
    Object.assign(
      schemas,
      union(
        `${family}Game${suffix}`,
        members,
        eventName,
        `An event of a ${familyName} game${audit ? ', as in the audit bundle' : ''}, by \`type\`.`,
      ),
    );
  }
  return schemas;
}

const AUDIT: Record<string, JsonSchema> = {
  AuditBundle: closed(
    {
      format: constant('fairdice-audit'),
      formatVersion: {
        type: 'integer',
        enum: [1, 2, 3],
        description: 'Served bundles are 2, or 3 for a game with a computer seat (listed in players with playerId null); 1 is a bundle stored before seeds moved after the commitment.',
      },
      algorithms: closed(
        {
          commitment: constant('sha256(serverSeed)'),
          roll: constant('fairdice/roll/v1'),
          eventHash: constant('sha256(canonical-json(envelope))/v1'),
        },
        { description: 'The algorithms of this format version (docs/fairness.md §5).' },
      ),
      gameId: uuid(),
      status: ref('GameStatus'),
      ruleSet: closed(
        { name: ref('RuleSetName'), family: ref('GameFamily'), version: str('Rules version.'), options: ref('GameOptions') },
        { description: 'The rule set and its resolved options.' },
      ),
      createdAt: dateTime(),
      endedAt: nullable(dateTime()),
      commitment: hex64(),
      organizerSeed: nullable(str()),
      players: arrayOf(
        closed({
          seat: seatNo,
          playerId: nullable(uuid('null: a computer seat (format 3: the service plays it, its seed generated at the start).')),
          displayName: nullable(str()),
          hotSeat: bool(),
          clientSeed: nullable(str('null only before the start, while unset')),
          clientSeedGenerated: nullable(
            bool('From the gameStarted event: generated by the service (true) or supplied (false); null before the start.'),
          ),
        }),
      ),
      clientSeeds: nullable(arrayOf(str(), 'The seeds in derivation order (organizer seed first), once started.')),
      serverSeed: nullable(hex64('null until the game has ended (finished or abandoned)')),
      rollCount: int(undefined, { minimum: 0 }),
      events: arrayOf(ref('AuditEvent')),
      chainHead: hex64(),
      finalStandings: nullable(
        arrayOf(closed({ rank: int(), seat: seatNo, playerId: nullable(uuid()), score: int(), quit: bool() })),
      ),
      generatedAt: dateTime(),
      transparencyLog: nullable(
        closed(
          {
            treeHead: closed({
              treeSize: int(),
              timestamp: int('ms since the Unix epoch'),
              rootHash: hex64(),
              signature: str(undefined, { pattern: '^[0-9a-f]{128}$' }),
              logId: hex64(),
            }),
            entries: arrayOf(
              closed({
                leafIndex: int(),
                leaf: str('62-byte leaf, hex'),
                inclusionProof: arrayOf(hex64()),
              }),
            ),
          },
          {
            description:
              "The game's leaves in the transparency log with RFC 9162 inclusion proofs against a signed tree head (docs/fairness.md §9.4).",
          },
        ),
      ),
    },
    {
      optional: ['transparencyLog'],
      description:
        'Audit bundle, format "fairdice-audit" (docs/fairness.md §5). Verify offline with `npx fairdice verify <file-or-url>`.',
    },
  ),
  AuditEvent: {
    description: "An event of the bundle: FiveDiceGameAuditEvent or FarkleGameAuditEvent by the game's family.",
    anyOf: [ref('FiveDiceGameAuditEvent'), ref('FarkleGameAuditEvent')],
  },
};

/** Every hand-written game schema, by component name. */
export const GAME_SCHEMAS: Record<string, JsonSchema> = {
  ...ENUMS,
  SeatStanding: seatStanding,
  ...OPTIONS,
  ...familySchemas('FiveDice', fiveDiceEvents, fiveDiceMoves),
  ...familySchemas('Farkle', farkleEvents, farkleMoves),
  GameEvent: {
    description:
      "A stored event with its place in the hash chain: FiveDiceGameEvent or FarkleGameEvent according to the game's `family` (the families share the lifecycle events and reuse some type names).",
    anyOf: [ref('FiveDiceGameEvent'), ref('FarkleGameEvent')],
  },
  ...AUDIT,
};

/** The event types of each family (lifecycle first), for the SSE description and docs. */
export const EVENT_TYPES = {
  lifecycle: lifecycleEvents.map((e) => e.type),
  'five-dice': fiveDiceEvents.map((e) => e.type),
  farkle: farkleEvents.map((e) => e.type),
};
