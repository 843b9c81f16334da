/**
 * The closed string sets of the API as GraphQL enums (decision record 0022). The wire value of
 * each enum value is its name, which is the REST value itself, except where REST uses a character
 * a GraphQL name may not hold (`-`, `.`): there it becomes `_` (five-dice → five_dice). Resolvers
 * keep working with the REST values; the enum maps them both ways.
 */
import { registerEnumType } from '@nestjs/graphql';
import { ADVICE_SETTINGS, COMPUTER_LEVELS, LIFECYCLE_EVENT_TYPES } from '@fairdice/core/rules/game/types';
import { RULE_SET_NAMES } from '@fairdice/core/rules/registry';
import { BOX_IDS } from '@fairdice/core/rules/five-dice/types';
import { JOKER_RULES } from '@fairdice/core/rules/five-dice/options';

/** GraphQL enum value name for a REST value: `-` and `.` become `_`. */
export const graphqlEnumName = (restValue: string): string => restValue.replace(/[-.]/g, '_');

/** `{ graphqlName: restValue }` for registerEnumType. */
export function enumOf<T extends string>(values: readonly T[]): Record<string, T> {
  return Object.fromEntries(values.map((v) => [graphqlEnumName(v), v]));
}

/** The family events' types (packages/core/src/rules/{five-dice,farkle}/types.ts). */
export const FIVE_DICE_EVENT_TYPES = ['rolled', 'scored', 'quit', 'finished'] as const;
export const FARKLE_EVENT_TYPES = [
  'rollOff',
  'turnStarted',
  'rolled',
  'setAside',
  'farkled',
  'penalty',
  'banked',
  'busted',
  'passed',
  'lastRound',
  'quit',
  'finished',
] as const;
export const GAME_EVENT_TYPES = [
  ...new Set<string>([...LIFECYCLE_EVENT_TYPES, ...FIVE_DICE_EVENT_TYPES, ...FARKLE_EVENT_TYPES]),
];

export const GAME_FAMILIES = ['five-dice', 'farkle'] as const;
export const GAME_STATUSES = ['open', 'playing', 'finished', 'abandoned'] as const;
export const VISIBILITIES = ['public', 'private'] as const;
/**
 * Why an event happened, where its payload says so: gameAbandoned (expired, inactive, cancelled),
 * Farkle's finished (target, quit) and any family event the server made for a timed-out turn
 * (timeout). One enum for all, so that `reason` has one type in every event and fragments on
 * several event types can select it together.
 */
export const EVENT_REASONS = [
  'expired',
  'inactive',
  'cancelled',
  'target',
  'quit',
  'timeout',
  'computer',
  'autoScore',
] as const;

export const RuleSetNameEnum = enumOf(RULE_SET_NAMES);
export const GameFamilyEnum = enumOf(GAME_FAMILIES);
export const GameStatusEnum = enumOf(GAME_STATUSES);
export const VisibilityEnum = enumOf(VISIBILITIES);
export const AdviceSettingEnum = enumOf(ADVICE_SETTINGS);
export const BoxIdEnum = enumOf(BOX_IDS);
export const JokerRuleEnum = enumOf(JOKER_RULES);
export const GameEventTypeEnum = enumOf(GAME_EVENT_TYPES);
export const EventReasonEnum = enumOf(EVENT_REASONS);
export const ComputerLevelEnum = enumOf(COMPUTER_LEVELS);

registerEnumType(RuleSetNameEnum, {
  name: 'RuleSetName',
  description: 'A rule-set preset (GET /v1/rule-sets): penta, simple and bonus are five-dice; farkle is Farkle.',
});
registerEnumType(GameFamilyEnum, {
  name: 'GameFamily',
  description: 'The game family. REST spells five_dice "five-dice" (GraphQL names cannot hold "-").',
});
registerEnumType(GameStatusEnum, {
  name: 'GameStatus',
  description:
    'open: seats are being taken; playing: started; finished: played to the end; abandoned: cancelled or expired before the start, or given up for inactivity.',
});
registerEnumType(VisibilityEnum, {
  name: 'Visibility',
  description: 'public: listed and readable by anyone; private: only its seats see it.',
});
registerEnumType(AdviceSettingEnum, {
  name: 'AdviceSetting',
  description:
    'allowed (default): the service gives advice for the game; forbidden: it refuses (ADVICE_FORBIDDEN). It stops the service from helping, not a player from computing advice elsewhere.',
});
registerEnumType(BoxIdEnum, {
  name: 'BoxId',
  description: 'A box of the five-dice score sheet, upper section (ones to sixes) first.',
});
registerEnumType(JokerRuleEnum, {
  name: 'JokerRule',
  description:
    'How a further five of a kind is entered once the five-of-a-kind box holds 50: forced (the penta joker), free (any open box), none (no joker). See docs/rules.md.',
});
registerEnumType(GameEventTypeEnum, {
  name: 'GameEventType',
  description:
    "The type of a stored event: the game's lifecycle (gameCreated ... gameFinished) and the families' moves. Each has its object type implementing GameEvent (docs/api.md).",
});
registerEnumType(EventReasonEnum, {
  name: 'EventReason',
  description:
    'Why an event happened: gameAbandoned (expired, inactive, cancelled); Farkle finished (target, quit); on moves the server made: timeout (the turn ran out of time), computer (a computer seat played), autoScore (five dice: not scored within autoScoreAfterMs of the last roll).',
});
registerEnumType(ComputerLevelEnum, {
  name: 'ComputerLevel',
  description:
    'How the computer plays (docs/advice.md, Computer players): expert (the highest chance to win: two-player Farkle; otherwise as optimal), optimal (the solvers), standard (the heuristic), beginner (a weak fixed policy).',
});
