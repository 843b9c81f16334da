/** OpenAPI schemas of the event payloads (the `data` of each event): lifecycle events, then five dice and Farkle (packages/core/src/rules game/types.ts and each family's types.ts). */
import {
  arrayOf,
  bool,
  closed,
  constant,
  enumOf,
  hex64,
  int,
  type JsonSchema,
  nullable,
  ref,
  str,
  uuid,
} from './json-schema';
import { clientSeed, die, seatNo, timeoutReason } from './game-schema-fields';

export const seatStanding = closed(
  { seat: seatNo, total: int('Final total.'), rank: int('1 = first; equal totals share a rank.'), quit: bool() },
  { description: 'Final standing of a seat.' },
);
export const seatSeed = closed({ seat: seatNo, clientSeed });

// ---- event payloads (the `data` of each event) --------------------------------------------

export interface EventDef {
  type: string;
  /** The envelope's `seat`: a seat number, null, or either. */
  seat: 'seat' | 'null' | 'either';
  data: JsonSchema;
  description: string;
}

export const lifecycleEvents: EventDef[] = [
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
      rated: bool('true on a rated game (docs/ratings.md); absent on every other game.'),
    }, { optional: ['computerLevel', 'tournament', 'advice', 'rematchOf', 'rated'] }),
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
export const familyEvent = (
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

export const fiveDiceEvents: EventDef[] = [
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

export const farkleEvents: EventDef[] = [
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
