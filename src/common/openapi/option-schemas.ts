/** OpenAPI schemas of the named enums and of each family's options (presets and overrides), mirroring the options.ts of each family in packages/core/src/rules. */
import { BOX_IDS } from '@fairdice/core/rules/five-dice/types';
import { JOKER_RULES } from '@fairdice/core/rules/five-dice/options';
import { RULE_SET_NAMES } from '@fairdice/core/rules/registry';
import { ADVICE_SETTINGS, COMPUTER_LEVELS } from '@fairdice/core/rules/game/types';
import { bool, closed, enumOf, int, type JsonSchema, nullable, ref, uuid } from './json-schema';
import { FAMILIES, GAME_STATUSES, VISIBILITIES } from './game-schema-fields';

/** Named enums shared by every schema that uses them (REST bodies, events, audit). */
export const ENUMS: Record<string, JsonSchema> = {
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
    'How the computer plays (docs/advice.md, Computer players): expert (the highest chance to win: two-player Farkle; otherwise as optimal), optimal (the solvers), standard (the heuristic), beginner (a weak fixed policy).',
  ),
};

export const fiveDiceOptionProps = {
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
export const straight = (what: string) => nullable(int(`${what}; null: not scored.`, { minimum: 1, maximum: 100000 }));
export const straightProps = {
  low: straight('1-2-3-4-5 in one roll'),
  high: straight('2-3-4-5-6 in one roll'),
  full: straight('1-2-3-4-5-6 in one roll'),
};
export const farkleOptionProps = (straights: JsonSchema) => ({
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

export const OPTIONS: Record<string, JsonSchema> = {
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
