import { Injectable } from '@nestjs/common';
import {
  assertTwoPlayerSolvable,
  adviseBankOrRoll,
  adviseBox,
  adviseEndgameBox,
  adviseEndgameHolds,
  adviseHolds,
  createEndgame,
  endgameCovers,
  endgameWinChance,
  upperBonusChance,
  adviseLastTurnSetAside,
  adviseSetAside,
  expectedFinalScore,
  expectedTurns,
  solveLastTurn,
  type FarkleSolution,
  type FiveDiceSolution,
} from '@fairdice/core/rules/advice';
import type { Die } from '@fairdice/core/rules/core/dice';
import { familyById, RULE_SETS } from '@fairdice/core/rules/registry';
import type { FiveDiceSheet } from '@fairdice/core/rules/five-dice';
import type { FarkleOptions } from '@fairdice/core/rules/farkle';
import { startedPlay } from '@fairdice/core/rules/game';
import { fiveDiceEndgameTarget } from '@fairdice/core/rules/computer';
import { DomainException } from '../common/errors';
import { GamesService } from '../games/games.service';
import type { AuthenticatedPlayer } from '../players/players.types';
import { AdviceTablesService, type AdviceCaller } from './advice-tables.service';
import type {
  FarkleAdviceInput,
  FarkleAdviceView,
  FiveDiceAdviceInput,
  FiveDiceAdviceView,
  GameAdviceView,
  GameAnalysisView,
} from './dto/advice.dto';
import {
  checkedSheet,
  invalidPosition,
  resolveOptions,
  supportedFarkle,
  supportedTwoPlayer,
  unsupported,
  winProbabilityUnsupported,
} from './advice-input';
import type { AdviceObjective } from './dto/advice-enums';
import { analyseFarkleTwoPlayer } from './farkle-analysis';
import { onBoardChanceOf, setAsideView, winProbabilityView } from './farkle-win-advice';
import { analyseFiveDice } from './game-analysis';

export { checkedSheet } from './advice-input';
export { labelOf, labelOfWinLoss } from './game-analysis';

const UNIT = 50;

/**
 * The advice API (docs/advice.md): optimal advice for a game's player to move, a stateless
 * advisor for five dice and Farkle, and post-game analysis of finished five-dice games, all from
 * the solved tables (AdviceTablesService) and the pure advisers of @fairdice/core/rules/advice.
 */
@Injectable()
export class AdviceService {
  constructor(
    private readonly tables: AdviceTablesService,
    private readonly games: GamesService,
  ) {}

  // ------------------------------------------------------------------ stateless advisers

  /** `caller`: who asks (a table for custom options is built only for a signed-in player, within a budget). */
  fiveDiceAdvice(input: FiveDiceAdviceInput, caller: AdviceCaller): FiveDiceAdviceView {
    const options = resolveOptions(RULE_SETS[input.ruleSet as 'penta'], input.options);
    const sheet = checkedSheet(input.filled ?? [], input.extraBonus ?? 0, options);
    if (input.dice === undefined && input.rollsLeft !== 3)
      throw new DomainException('VALIDATION_FAILED', 'dice are required with 0, 1 or 2 rolls left', {
        errors: [{ field: 'dice', problems: ['dice are required unless rollsLeft is 3'] }],
      });
    if (input.dice !== undefined && input.rollsLeft === 3)
      throw new DomainException('VALIDATION_FAILED', 'rollsLeft 3 means nothing rolled yet: omit dice', {
        errors: [{ field: 'rollsLeft', problems: ['rollsLeft must be 0, 1 or 2 with dice'] }],
      });
    return this.fiveDiceFor(
      this.tables.forAdvisor('five-dice', options, caller),
      sheet,
      (input.dice as Die[] | undefined) ?? null,
      input.rollsLeft,
      input.toBeat ?? null,
    );
  }

  farkleAdvice(input: FarkleAdviceInput, caller: AdviceCaller): FarkleAdviceView {
    const options = resolveOptions(RULE_SETS.farkle, input.options);
    const winProbability = input.objective === 'winProbability';
    if (winProbability) supportedTwoPlayer(options);
    else supportedFarkle(options);
    for (const field of ['banked', 'turnPoints'] as const)
      if (input[field] % UNIT !== 0) throw invalidPosition(`${field} must be a multiple of 50`, field);
    if (input.banked >= options.target)
      throw invalidPosition(`banked must be below the target ${options.target}`, 'banked');
    if (input.banked > 0 && input.banked < options.entryThreshold)
      throw invalidPosition(`a banked total is 0 or at least the entry threshold ${options.entryThreshold}`, 'banked');
    if (input.dice === undefined && input.diceLeft === undefined)
      throw new DomainException('VALIDATION_FAILED', 'give the roll (dice) or, after a set-aside, diceLeft', {
        errors: [{ field: 'dice', problems: ['dice or diceLeft is required'] }],
      });
    if (input.dice !== undefined && input.diceLeft !== undefined)
      throw new DomainException('VALIDATION_FAILED', 'give either dice or diceLeft, not both', {
        errors: [{ field: 'diceLeft', problems: ['diceLeft is for bank-or-roll advice without a roll'] }],
      });
    const leader = input.lastRound?.leader ?? null;
    if (leader !== null && leader % UNIT !== 0)
      throw invalidPosition('leader must be a multiple of 50', 'lastRound.leader');
    if (input.dice === undefined && input.turnPoints === 0)
      throw invalidPosition('bank-or-roll advice follows a set-aside: turnPoints must be above 0', 'turnPoints');
    if (!winProbability && input.opponent !== undefined)
      throw new DomainException('VALIDATION_FAILED', 'opponent is for objective winProbability', {
        errors: [{ field: 'opponent', problems: ['opponent needs objective winProbability'] }],
      });
    if (winProbability) {
      if (input.lastRound !== undefined)
        throw new DomainException(
          'VALIDATION_FAILED',
          'lastRound is not combined with winProbability: the last turn is an opponent total at or above the target',
          {
            errors: [{ field: 'lastRound', problems: ['lastRound cannot be combined with objective winProbability'] }],
          },
        );
      if (input.opponent === undefined)
        throw new DomainException('VALIDATION_FAILED', 'objective winProbability needs the opponent’s total', {
          errors: [{ field: 'opponent', problems: ['opponent is required with objective winProbability'] }],
        });
      const opponent = input.opponent.banked;
      if (opponent % UNIT !== 0) throw invalidPosition('opponent.banked must be a multiple of 50', 'opponent.banked');
      if (opponent > 0 && opponent < options.entryThreshold)
        throw invalidPosition(
          `a banked total is 0 or at least the entry threshold ${options.entryThreshold}`,
          'opponent.banked',
        );
      const roll = (input.dice as Die[] | undefined) ?? null;
      const diceLeft = input.diceLeft ?? null;
      const position = { banked: input.banked, opponent, turnPoints: input.turnPoints };
      return winProbabilityView(
        this.tables.forAdvisor('farkle-2p', options, caller),
        position,
        roll,
        diceLeft,
        onBoardChanceOf(options, input.banked > 0, input.turnPoints, roll, diceLeft),
      );
    }
    const roll = (input.dice as Die[] | undefined) ?? null;
    const diceLeft = input.diceLeft ?? null;
    const view = this.farkleFor(options, input.banked, input.turnPoints, roll, diceLeft, leader, caller);
    return { ...view, onBoardChance: onBoardChanceOf(options, input.banked > 0, input.turnPoints, roll, diceLeft) };
  }

  // ------------------------------------------------------------------ a game's player to move

  /** `objective`: expected (the solo objective, the default) or winProbability (two-seat Farkle games; five dice: the same view, whose endgame fields carry the win chances). */
  async gameAdvice(
    player: AuthenticatedPlayer,
    gameId: string,
    objective: AdviceObjective = 'expected',
  ): Promise<GameAdviceView> {
    const { state } = await this.games.replayed(player, gameId);
    if (!state.seats.some((s) => s.playerId === player.id))
      throw new DomainException('NOT_SEATED', 'You do not hold a seat in this game');
    if (state.advice === 'forbidden')
      throw new DomainException('ADVICE_FORBIDDEN', 'This game was created with advice forbidden');
    if (state.status === 'open') throw new DomainException('GAME_NOT_STARTED', 'The game has not started');
    if (state.status !== 'playing') throw new DomainException('GAME_FINISHED', 'The game is over');
    const seat = familyById(state.family).currentSeat(startedPlay(state));
    if (seat === null || state.seats[seat]?.playerId !== player.id)
      throw new DomainException('NOT_YOUR_TURN', 'Advice is for the player to move', { currentSeat: seat });
    const base = { gameId: state.id, version: state.version, family: state.family, seat };
    // Five dice: the one view carries the endgame's win chances whenever they apply, whatever the objective.
    if (objective === 'winProbability' && state.family === 'farkle' && state.seats.length !== 2)
      throw winProbabilityUnsupported(
        `Win-probability advice covers Farkle games with exactly two seats (this game has ${state.seats.length})`,
      );
    if (state.family === 'five-dice') {
      const play = startedPlay(state);
      const turn = play.turn!;
      const dice = turn.rollInTurn === 0 ? null : (turn.dice as Die[]);
      // The endgame: every other seat that has not quit has finished (the expert computer's rule).
      const toBeat = fiveDiceEndgameTarget(play, seat);
      const advice = this.fiveDiceFor(
        this.tables.fiveDice(play.options),
        play.sheets[seat],
        dice,
        3 - turn.rollInTurn,
        toBeat,
      );
      return { ...base, fiveDice: advice, farkle: null };
    }
    const play = startedPlay(state);
    if (objective === 'winProbability') supportedTwoPlayer(play.options);
    else supportedFarkle(play.options);
    const turn = play.turn!;
    const banked = play.totals[seat];
    const roll = turn.roll !== null && turn.setAside === null ? turn.roll : null;
    const diceLeft = turn.roll === null || roll !== null ? null : turn.diceLeft === 0 ? 6 : turn.diceLeft;
    if (objective === 'winProbability') {
      const position = { banked, opponent: play.totals[1 - seat], turnPoints: turn.points };
      const onBoard = onBoardChanceOf(play.options, play.onBoard[seat], turn.points, roll, diceLeft);
      return {
        ...base,
        fiveDice: null,
        farkle: winProbabilityView(this.tables.farkleTwoPlayer(play.options), position, roll, diceLeft, onBoard),
      };
    }
    const others = play.totals.filter((_, s) => s !== seat && !play.quit[s]);
    const leader =
      play.lastRound !== null &&
      play.lastRound.remaining.includes(seat) &&
      others.length > 0 &&
      Math.max(...others) >= banked
        ? Math.max(...others)
        : null;
    const view = this.farkleFor(play.options, banked, turn.points, roll, diceLeft, leader);
    const onBoardChance = onBoardChanceOf(play.options, play.onBoard[seat], turn.points, roll, diceLeft);
    return { ...base, fiveDice: null, farkle: { ...view, onBoardChance } };
  }

  // ------------------------------------------------------------------ post-game analysis

  async analysis(player: AuthenticatedPlayer | null, gameId: string): Promise<GameAnalysisView> {
    const { state, events } = await this.games.replayed(player, gameId, true);
    if (state.family === 'farkle') {
      if (state.seats.length !== 2)
        throw unsupported('Post-game analysis of Farkle covers two-seat games only (docs/advice.md)');
      // Rules it will never cover are refused before the game ends (nothing to wait for).
      const options = state.options;
      try {
        assertTwoPlayerSolvable(options);
      } catch (error) {
        throw unsupported(`Post-game analysis does not model these Farkle rules: ${(error as Error).message}`);
      }
      if (state.status !== 'finished')
        throw new DomainException('GAME_NOT_FINISHED', 'Post-game analysis is for finished games');
      return analyseFarkleTwoPlayer(this.tables.farkleTwoPlayer(options), state, events!);
    }
    if (state.status !== 'finished')
      throw new DomainException('GAME_NOT_FINISHED', 'Post-game analysis is for finished games');
    const options = startedPlay(state).options;
    const table = this.tables.fiveDice(options);
    return analyseFiveDice(table, state, events!);
  }

  // ------------------------------------------------------------------ internals

  private fiveDiceFor(
    table: FiveDiceSolution,
    sheet: FiveDiceSheet,
    dice: Die[] | null,
    rollsLeft: number,
    toBeat: number | null,
  ): FiveDiceAdviceView {
    const atStart = expectedFinalScore(table, sheet);
    const upperBonus = upperBonusChance(table, sheet, dice, rollsLeft);
    const eg = toBeat === null ? null : createEndgame(table.options);
    const status = eg === null ? 'noTarget' : endgameCovers(eg, sheet) ? 'solved' : 'tooManyOpenBoxes';
    const solved = status === 'solved' ? eg : null;
    const endgame = {
      toBeat,
      winChanceStatus: status,
      winChanceAtTurnStart: solved ? endgameWinChance(solved, sheet, toBeat!) : null,
      upperBonusChance: upperBonus,
    };
    if (dice === null) {
      const winChance = endgame.winChanceAtTurnStart;
      const roll = { action: 'roll', hold: null, box: null, expected: atStart, winChance };
      return {
        expectedAtTurnStart: atStart,
        dice: null,
        rollsLeft: 3,
        best: roll,
        holds: [],
        boxes: [],
        ...endgame,
        bestWin: solved ? roll : null,
      };
    }
    const winBoxes = solved ? adviseEndgameBox(solved, sheet, toBeat!, dice) : null;
    const winHolds =
      solved && rollsLeft > 0 ? adviseEndgameHolds(solved, sheet, toBeat!, dice, rollsLeft as 1 | 2) : null;
    const boxWin = (box: string) => winBoxes?.find((b) => b.box === box)?.winChance ?? null;
    const sameKept = (a: readonly number[], b: readonly number[]) =>
      a.length === b.length && a.every((f, i) => f === b[i]);
    const holdWin = (kept: readonly number[]) => winHolds?.find((h) => sameKept(h.kept, kept))?.winChance ?? null;
    const boxes = adviseBox(table, sheet, dice).map((b) => ({ ...b, winChance: boxWin(b.box) }));
    const holds =
      rollsLeft > 0
        ? adviseHolds(table, sheet, dice, rollsLeft as 1 | 2).map((h) => ({ ...h, winChance: holdWin(h.kept) }))
        : [];
    const move = (hold: { hold: number[]; kept: number[] } | undefined, box: string) =>
      hold && hold.kept.length < 5
        ? {
            action: 'hold',
            hold: hold.hold,
            box: null,
            expected: holds.find((h) => sameKept(h.kept, hold.kept))!.expected,
            winChance: holdWin(hold.kept),
          }
        : {
            action: 'score',
            hold: null,
            box,
            expected: boxes.find((b) => b.box === box)!.expected,
            winChance: boxWin(box),
          };
    const best = move(holds[0], boxes[0].box);
    const bestWin = winBoxes ? move(winHolds?.[0], winBoxes[0].box) : null;
    return { expectedAtTurnStart: atStart, dice, rollsLeft, best, holds, boxes, ...endgame, bestWin };
  }

  private farkleFor(
    options: FarkleOptions,
    banked: number,
    turnPoints: number,
    roll: Die[] | null,
    diceLeft: number | null,
    leader: number | null,
    /** The stateless advisor's caller; null for a game's player to move (the game's table has priority). */
    caller: AdviceCaller | null = null,
  ): FarkleAdviceView {
    const base = { banked, turnPoints, dice: roll };
    if (leader !== null && leader >= banked) {
      // Last round, trailing: maximise the chance to finish above the leader (solveLastTurn).
      const table = solveLastTurn(options, banked, leader);
      const need = table.need * UNIT;
      if (roll !== null) {
        const list = adviseLastTurnSetAside(table, turnPoints, roll).map((a) =>
          setAsideView(a, { bank: null, roll: null, value: a.winChance }),
        );
        const best = list[0];
        return {
          ...base,
          objective: 'beatLeader',
          leader,
          opponent: null,
          onBoardChance: null,
          value: best ? best.value : 0,
          best: best ? { action: 'setAside', dice: best.dice, then: best.then, value: best.value } : null,
          setAsides: list,
          bank: null,
          roll: null,
        };
      }
      const wins = turnPoints >= need;
      const rollChance = wins ? 1 : table.winChance[(turnPoints / UNIT) * 7 + (diceLeft ?? 6)];
      const value = wins ? 1 : rollChance;
      return {
        ...base,
        objective: 'beatLeader',
        leader,
        opponent: null,
        onBoardChance: null,
        value,
        best: { action: wins ? 'bank' : 'roll', dice: null, then: null, value },
        setAsides: [],
        bank: wins ? 1 : null,
        roll: wins ? null : rollChance,
      };
    }
    const solution: FarkleSolution = caller
      ? this.tables.forAdvisor('farkle', options, caller)
      : this.tables.farkle(options);
    if (roll !== null) {
      const list = adviseSetAside(solution, { banked, turnPoints }, roll).map((a) =>
        setAsideView(a, { bank: a.bank, roll: a.roll, value: a.expected }),
      );
      const best = list[0];
      return {
        ...base,
        objective: 'fewestTurns',
        leader: null,
        opponent: null,
        onBoardChance: null,
        value: expectedTurns(solution, banked),
        best: best ? { action: 'setAside', dice: best.dice, then: best.then, value: best.value } : null,
        setAsides: list,
        bank: null,
        roll: null,
      };
    }
    if (diceLeft === null) {
      // Start of the turn: the only move is to roll.
      const value = expectedTurns(solution, banked);
      return {
        ...base,
        objective: 'fewestTurns',
        leader: null,
        opponent: null,
        onBoardChance: null,
        value,
        best: { action: 'roll', dice: null, then: null, value },
        setAsides: [],
        bank: null,
        roll: value,
      };
    }
    const choice = adviseBankOrRoll(solution, { banked, turnPoints }, diceLeft);
    const value = choice.best === 'bank' ? choice.bank! : choice.roll;
    return {
      ...base,
      objective: 'fewestTurns',
      leader: null,
      opponent: null,
      onBoardChance: null,
      value,
      best: { action: choice.best, dice: null, then: null, value },
      setAsides: [],
      bank: choice.bank,
      roll: choice.roll,
    };
  }
}
