/** A new game's options, checked by their rule family before anything is hashed or stored. */
import { assertFarkleSolvable, assertTwoPlayerSolvable } from '@fairdice/core/rules/advice';
import { isRuleError } from '@fairdice/core/rules/core/errors';
import type { FarkleOptions } from '@fairdice/core/rules/farkle';
import { AUTO_SCORE_DEFAULTS } from '@fairdice/core/rules/five-dice/options';
import { computerSeatsProblem, ratedGameProblem } from '@fairdice/core/rules/game';
import { familyById, RULE_SETS, type RuleSetName } from '@fairdice/core/rules/registry';
import { DomainException } from '../common/errors';
import type { CreateGameInput } from './dto/game.inputs';

/** 000's auto-score for a new `penta` game, unless the creator's overrides name it (AUTO_SCORE_DEFAULTS). */
export function withAutoScoreDefault(ruleSet: string, overrides: Record<string, unknown>): Record<string, unknown> {
  const ms = AUTO_SCORE_DEFAULTS[ruleSet];
  if (ms === undefined || 'autoScoreAfterMs' in overrides) return overrides;
  return { ...overrides, autoScoreAfterMs: ms };
}

/** The rule set's option overrides, validated by its family before anything is hashed or stored. */
export function checkOptions(input: CreateGameInput): void {
  const preset = RULE_SETS[input.ruleSet as RuleSetName];
  if (!preset) return; // the DTO already refused unknown rule sets; decideGame answers the rest
  const resolved = familyById(preset.family).resolveOptions(preset.options, input.options ?? {});
  if (isRuleError(resolved)) throw DomainException.fromRule(resolved);
  if (input.rated === true) {
    // The same check as the decider's, first, so that a refused rated game is VALIDATION_FAILED with its field.
    const problem = ratedGameProblem(
      {
        rated: true,
        ruleSet: input.ruleSet as RuleSetName,
        seatCount: input.seats,
        hotSeats: input.hotSeats ?? 0,
        computerSeats: (input.computerSeats ?? []).map((c) => ({ seat: c.seat, level: 'standard' as const })),
        advice: input.advice ?? 'forbidden',
        turnTimeLimitSeconds: input.turnTimeLimitSeconds ?? null,
        visibility: input.visibility ?? 'public',
      },
      familyById(preset.family).resolveOptions(
        preset.options,
        withAutoScoreDefault(input.ruleSet, input.options ?? {}),
      ),
    );
    if (problem !== null)
      throw new DomainException('VALIDATION_FAILED', problem, { errors: [{ field: 'rated', problems: [problem] }] });
  }
  // Timeouts and auto-scores at level optimal (or expert) would be the service playing a player's move
  // optimally: advice by another name, so a game that forbids advice cannot have it (decisions 0041, 0146).
  if (input.advice === 'forbidden' && (input.computerLevel === 'optimal' || input.computerLevel === 'expert')) {
    const why = `computerLevel ${input.computerLevel} is not available in a game that forbids advice (its timeouts and auto-scores would play optimally for the player)`;
    throw new DomainException('VALIDATION_FAILED', why, { errors: [{ field: 'computerLevel', problems: [why] }] });
  }
  if (input.computerSeats !== undefined && input.computerSeats !== null) {
    const problem = computerSeatsProblem(input.seats, input.hotSeats ?? 0, input.computerSeats);
    if (problem !== null)
      throw new DomainException('VALIDATION_FAILED', problem, {
        errors: [{ field: 'computerSeats', problems: [problem] }],
      });
    // The Farkle solver covers the default scoring only (docs/advice.md): no optimal seat elsewhere.
    if (preset.family === 'farkle' && input.computerSeats.some((c) => c.level === 'optimal')) {
      try {
        assertFarkleSolvable(resolved as FarkleOptions);
      } catch (err) {
        const why = `level optimal is not available for these Farkle options: ${(err as Error).message}`;
        throw new DomainException('VALIDATION_FAILED', why, { errors: [{ field: 'computerSeats', problems: [why] }] });
      }
    }
    // Farkle's expert plays from the two-player table: exactly two seats, rules it models (decision 0146).
    if (preset.family === 'farkle' && input.computerSeats.some((c) => c.level === 'expert')) {
      let why: string | null =
        input.seats === 2 ? null : `level expert plays Farkle against one opponent: the game needs exactly two seats`;
      if (why === null)
        try {
          assertTwoPlayerSolvable(resolved as FarkleOptions);
        } catch (err) {
          why = `level expert is not available for these Farkle options: ${(err as Error).message}`;
        }
      if (why !== null)
        throw new DomainException('VALIDATION_FAILED', why, { errors: [{ field: 'computerSeats', problems: [why] }] });
    }
  }
}
