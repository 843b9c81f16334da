/** OpenAPI schemas of the commands: the lifecycle commands of a family, and each family's moves. */
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
import { clientSeed, seatNo } from './game-schema-fields';
import { seatSeed } from './event-schemas';

// ---- commands ----------------------------------------------------------------------------

export const lifecycleCommands = (family: 'FiveDice' | 'Farkle'): Record<string, JsonSchema> => ({
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
      rated: bool('A rated game (docs/ratings.md); absent: not rated.'),
    },
    {
      optional: [
        'rated',
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

export const fiveDiceMoves: Record<string, JsonSchema> = {
  roll: closed(
    { type: constant('roll'), hold: arrayOf(int(undefined, { minimum: 0, maximum: 4 }), 'Indices kept.') },
    { optional: ['hold'] },
  ),
  score: closed({ type: constant('score'), box: ref('BoxId') }),
  quit: closed({ type: constant('quit') }),
};
export const setAsideIndices = arrayOf(int(undefined, { minimum: 0, maximum: 5 }), 'Indices into the current roll.');
export const farkleMoves: Record<string, JsonSchema> = {
  roll: closed({ type: constant('roll'), setAside: setAsideIndices }, { optional: ['setAside'] }),
  setAside: closed({ type: constant('setAside'), dice: setAsideIndices }),
  bank: closed({ type: constant('bank'), setAside: setAsideIndices }, { optional: ['setAside'] }),
  quit: closed({ type: constant('quit') }),
};
