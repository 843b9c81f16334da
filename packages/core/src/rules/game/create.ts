/** A new game: the `create` command's checks (rule set, seats, hot seats and their names, computer seats) and its events. */
import { RuleError, ruleError } from '../core/errors';
import { familyById, isRuleSetName, RULE_SETS } from '../registry';
import { ADVICE_SETTINGS, type CreateCommand, type GameEvent, type GameState, isComputerLevel } from './types';
import { lifecycle } from './decision';
import { AUTO_SCORE_DEFAULTS } from '../five-dice/options';
import { isRatingPool, RATING_POOLS } from '../ratings/pools';

export const MIN_SEATS = 1;
export const MAX_SEATS = 8;

export function decideCreate(state: GameState, c: CreateCommand): GameEvent[] | RuleError {
  if (state.version !== 0) return ruleError('INVALID_COMMAND', 'The game already exists');
  if (!isRuleSetName(c.ruleSet)) return ruleError('INVALID_OPTIONS', `Unknown rule set ${String(c.ruleSet)}`);
  const preset = RULE_SETS[c.ruleSet];
  if (
    !Number.isInteger(c.seatCount) ||
    c.seatCount < Math.max(MIN_SEATS, preset.minSeats) ||
    c.seatCount > Math.min(MAX_SEATS, preset.maxSeats)
  ) {
    return ruleError('INVALID_OPTIONS', `seats must be between ${preset.minSeats} and ${preset.maxSeats}`);
  }
  if (!Number.isInteger(c.hotSeats) || c.hotSeats < 0 || c.hotSeats > c.seatCount - 1) {
    return ruleError('INVALID_OPTIONS', `hotSeats must be between 0 and ${c.seatCount - 1}`);
  }
  // Legacy create commands carried the creator's seeds; new ones leave the seats without a seed.
  if (c.clientSeeds !== undefined && (!Array.isArray(c.clientSeeds) || c.clientSeeds.length !== 1 + c.hotSeats))
    return ruleError('INVALID_COMMAND', 'one client seed per seat held by the creator');
  if (c.computerLevel !== undefined && !isComputerLevel(c.computerLevel))
    return ruleError('INVALID_OPTIONS', 'computerLevel must be expert, optimal, standard or beginner', {
      option: 'computerLevel',
    });
  if (c.computerSeats !== undefined) {
    const problem = computerSeatsProblem(c.seatCount, c.hotSeats, c.computerSeats);
    if (problem !== null) return ruleError('INVALID_OPTIONS', problem, { option: 'computerSeats' });
  }
  if (c.advice !== undefined && !(ADVICE_SETTINGS as readonly unknown[]).includes(c.advice))
    return ruleError('INVALID_OPTIONS', `advice must be one of ${ADVICE_SETTINGS.join(', ')}`, { option: 'advice' });
  const badName = hotSeatNamesError(c);
  if (badName) return badName;
  if (c.rematchOf !== undefined && (typeof c.rematchOf !== 'string' || c.rematchOf.length === 0))
    return ruleError('INVALID_COMMAND', 'rematchOf must be a game id');
  const family = familyById(preset.family);
  const options = family.resolveOptions(preset.options, c.options ?? {});
  if (options instanceof RuleError) return options;
  if (c.rated !== undefined && c.rated !== false) {
    const problem = ratedGameProblem(c, options);
    if (problem !== null) return ruleError('INVALID_OPTIONS', problem, { option: 'rated' });
  }
  const events: GameEvent[] = [
    lifecycle('gameCreated', null, {
      ruleSet: c.ruleSet,
      family: preset.family,
      options,
      seatCount: c.seatCount,
      visibility: c.visibility,
      creatorId: c.creatorId,
      commitment: c.commitment,
      organizerSeed: c.organizerSeed ?? null,
      turnTimeLimitSeconds: c.turnTimeLimitSeconds,
      // Only when given, so that the create commands from before levels existed re-run to the same event.
      ...(c.computerLevel !== undefined ? { computerLevel: c.computerLevel } : {}),
      ...(c.tournament ? { tournament: { ...c.tournament } } : {}),
      ...(c.advice !== undefined ? { advice: c.advice } : {}),
      ...(c.rematchOf !== undefined ? { rematchOf: c.rematchOf } : {}),
      // Only on rated games, so that every earlier create command re-runs to the same event.
      ...(c.rated === true ? { rated: true as const } : {}),
    }),
  ];
  for (let seat = 0; seat <= c.hotSeats; seat++) {
    events.push(
      lifecycle('seatTaken', seat, {
        playerId: c.creatorId,
        clientSeed: c.clientSeeds ? c.clientSeeds[seat] : null,
        hotSeat: seat > 0,
        ...(seat > 0 && c.hotSeatNames !== undefined ? { name: c.hotSeatNames[seat - 1] } : {}),
      }),
    );
  }
  for (const { seat, level } of [...(c.computerSeats ?? [])].sort((a, b) => a.seat - b.seat)) {
    events.push(lifecycle('computerSeated', seat, { level }));
  }
  return events;
}

/**
 * Why a create command cannot make a rated game, or null (docs/ratings.md §1): a rating pool's
 * rule set with the preset's default options (a penta game's default auto-score included), human
 * seats only (no hot seats, no computer seats), advice forbidden, a per-move time limit, public,
 * not a tournament game. The API checks the same first (VALIDATION_FAILED, field `rated`).
 */
export function ratedGameProblem(
  c: Pick<
    CreateCommand,
    | 'rated'
    | 'ruleSet'
    | 'seatCount'
    | 'hotSeats'
    | 'computerSeats'
    | 'advice'
    | 'turnTimeLimitSeconds'
    | 'visibility'
    | 'tournament'
  >,
  resolvedOptions: unknown,
): string | null {
  if (c.rated !== true) return 'rated must be true or false';
  if (!isRatingPool(c.ruleSet)) return `rule set ${String(c.ruleSet)} has no rating pool (${RATING_POOLS.join(', ')})`;
  if (!(c.seatCount >= 2)) return 'a rated game has at least 2 seats';
  if (c.hotSeats !== 0) return 'a rated game has no hot seats: every seat is a different player';
  if (c.computerSeats !== undefined && c.computerSeats.length > 0) return 'a rated game has no computer seats';
  if (c.advice !== 'forbidden') return 'a rated game forbids advice (advice: forbidden)';
  if (c.turnTimeLimitSeconds === null || !(c.turnTimeLimitSeconds > 0))
    return 'a rated game needs a per-move time limit (turnTimeLimitSeconds)';
  if (c.visibility !== 'public') return 'a rated game is public';
  if (c.tournament) return 'tournament games are not rated';
  const preset = RULE_SETS[c.ruleSet];
  const defaults = familyById(preset.family).resolveOptions(preset.options, AUTO_SCORE_OVERRIDES[c.ruleSet] ?? {});
  if (JSON.stringify(defaults) !== JSON.stringify(resolvedOptions))
    return `a rated game is played with the ${c.ruleSet} preset's default options (no options)`;
  return null;
}

/** A new game's default auto-score (five-dice AUTO_SCORE_DEFAULTS) as option overrides. */
const AUTO_SCORE_OVERRIDES: Partial<Record<string, Record<string, unknown>>> = Object.fromEntries(
  Object.entries(AUTO_SCORE_DEFAULTS).map(([name, ms]) => [name, { autoScoreAfterMs: ms }]),
);

/**
 * Why a create command's computer seats are wrong, or null: each `{ seat, level }` names a seat
 * from 1 to seatCount − 1 that is not a hot seat (seat 0 is the creator's), at most once, at a
 * known level. The API checks the same first (VALIDATION_FAILED, docs/api.md).
 */
export function computerSeatsProblem(seatCount: number, hotSeats: number, list: unknown): string | null {
  if (!Array.isArray(list)) return 'computerSeats must be a list of { seat, level }';
  const seen = new Set<number>();
  for (const item of list as Array<{ seat?: unknown; level?: unknown }>) {
    const seat = item?.seat;
    if (typeof seat !== 'number' || !Number.isInteger(seat) || seat < 0 || seat >= seatCount)
      return `computer seat ${String(seat)}: a seat is from 1 to ${seatCount - 1}`;
    if (seat === 0) return "computer seat 0: seat 0 is the creator's";
    if (seat <= hotSeats) return `computer seat ${seat}: seats 1 to ${hotSeats} are the creator's hot seats`;
    if (seen.has(seat)) return `computer seat ${seat} is named twice`;
    seen.add(seat);
    if (!isComputerLevel(item.level))
      return `computer seat ${seat}: level must be expert, optimal, standard or beginner, not ${String(item.level)}`;
  }
  return null;
}

/** Visible characters, none of them control or format characters: the rule of display names. */
export const SEAT_NAME_PATTERN = /^[^\p{Cc}\p{Cf}]*[^\p{Cc}\p{Cf}\s][^\p{Cc}\p{Cf}]*$/u;
export const SEAT_NAME_MAX_LENGTH = 40;

function hotSeatNamesError(c: CreateCommand): RuleError | null {
  if (c.hotSeatNames === undefined) return null;
  const names: unknown = c.hotSeatNames;
  if (!Array.isArray(names) || names.length !== c.hotSeats)
    return ruleError('INVALID_OPTIONS', `hotSeatNames must name each of the ${c.hotSeats} hot seats, in seat order`, {
      option: 'hotSeatNames',
    });
  for (const [i, name] of names.entries()) {
    if (
      typeof name !== 'string' ||
      name.length < 1 ||
      name.length > SEAT_NAME_MAX_LENGTH ||
      !SEAT_NAME_PATTERN.test(name)
    )
      return ruleError(
        'INVALID_OPTIONS',
        `hotSeatNames[${i}] must be 1 to ${SEAT_NAME_MAX_LENGTH} characters with a visible one and no control characters`,
        { option: 'hotSeatNames' },
      );
  }
  return null;
}
