import type { LoadedGame } from '../event-store/event-store.service';
import type { GameRow, StoredEvent } from '../event-store/event-store.types';
import { bestSelection, scoringSelections } from '@fairdice/core/rules/farkle/scoring';
import { scoreOptionsFor, totals } from '@fairdice/core/rules/five-dice/scoring';
import { BOX_IDS, ROLLS_PER_TURN } from '@fairdice/core/rules/five-dice/types';
import { familyById } from '@fairdice/core/rules/registry';
import { farklePlay, fiveDicePlay, type GameState } from '@fairdice/core/rules/game';
import type { Die } from '@fairdice/core/rules/core/dice';
import type { GameEventView } from './dto/game-event-view.model';
import type { FarkleView, FiveDiceView, GameView } from './dto/game-view.model';
import { isEnded } from '@fairdice/core/rules/game/status';

/**
 * The client's view of a game. `revealStatus` decides whether the server seed is shown (the
 * game's CURRENT status, also for a view at an older version).
 */
export function buildGameView(
  row: GameRow,
  state: GameState,
  head: string,
  lastRolled: Record<string, unknown> | null,
  names: Record<string, string>,
  revealStatus: string = state.status,
): GameView {
  const play = state.play;
  const currentSeat = play === null ? null : familyById(state.family).currentSeat(play);
  const currentPlayerId = currentSeat === null ? null : (state.seats[currentSeat]?.playerId ?? null);
  const nameOf = (id: string | null) => (id === null ? null : (names[id] ?? null));
  let dice: number[] = [];
  let held: number[] = [];
  let rollsLeft: number | null = null;
  let fiveDice: FiveDiceView | null = null;
  let farkle: FarkleView | null = null;
  const fivePlay = fiveDicePlay(state);
  const farkleState = farklePlay(state);
  if (fivePlay !== null) {
    const p = fivePlay;
    const turn = p.turn;
    dice = turn ? [...turn.dice] : [];
    rollsLeft = turn ? ROLLS_PER_TURN - turn.rollInTurn : 0;
    if (
      turn &&
      turn.rollInTurn > 0 &&
      lastRolled &&
      lastRolled.seat === turn.seat &&
      lastRolled.rollInTurn === turn.rollInTurn
    ) {
      held = [...(lastRolled.held as number[])];
    }
    const options = p.options;
    fiveDice = {
      rollInTurn: turn ? turn.rollInTurn : 0,
      sheets: p.sheets.map((sheet, seat) => {
        const t = totals(sheet, options);
        return {
          seat,
          boxes: BOX_IDS.map((box) => ({ box, points: sheet.boxes[box] ?? null })),
          upper: t.upper,
          upperBonus: t.upperBonus,
          lower: t.lower,
          extraBonus: t.extraBonus,
          total: t.total,
          quit: p.quit[seat],
        };
      }),
      scoreOptions: turn && turn.dice.length > 0 ? scoreOptionsFor(p.sheets[turn.seat], turn.dice, options) : null,
    };
  } else if (farkleState !== null) {
    const p = farkleState;
    const turn = p.turn;
    const roll = turn?.roll ?? null;
    dice = roll ? [...roll] : [];
    held = turn?.setAside ? [...turn.setAside] : [];
    const selections = roll && !turn!.setAside ? scoringSelections(roll, p.options) : [];
    farkle = {
      target: p.options.target,
      entryThreshold: p.options.entryThreshold,
      players: p.totals.map((total, seat) => ({
        seat,
        total,
        onBoard: p.onBoard[seat],
        quit: p.quit[seat],
        farkleStreak: p.farkleStreak[seat],
      })),
      turnPoints: turn ? turn.points : 0,
      diceLeft: turn ? (turn.diceLeft === 0 ? 6 : turn.diceLeft) : 0,
      setAside: held,
      setAsideFaces: roll && turn!.setAside ? turn!.setAside.map((i) => roll[i]) : [],
      selections: selections.map((s) => ({ dice: [...s.dice], faces: [...s.faces], points: s.points })),
      bestSelection: roll && !turn!.setAside ? toSel(bestSelection(roll, p.options)) : null,
      lastRoundSeats: p.lastRound ? [...p.lastRound.remaining] : null,
    };
  }
  return {
    id: row.id,
    ruleSet: state.ruleSet,
    family: state.family,
    options: state.options,
    status: state.status,
    visibility: state.visibility,
    version: state.version,
    seatCount: state.seatCount,
    creatorId: state.creatorId,
    seats: state.seats.map((s) => ({
      seat: s.seat,
      playerId: s.playerId,
      displayName: s.name ?? nameOf(s.playerId),
      hotSeat: s.hotSeat,
      computer: s.computer,
      clientSeed: s.clientSeed,
      clientSeedGenerated: s.clientSeedGenerated,
    })),
    currentSeat,
    currentPlayerId,
    dice,
    held,
    rollsLeft,
    fiveDice,
    farkle,
    standings: state.standings
      ? state.standings.map((s) => ({
          ...s,
          playerId: state.seats[s.seat]?.playerId ?? null,
          displayName: state.seats[s.seat]?.name ?? nameOf(state.seats[s.seat]?.playerId ?? null),
        }))
      : null,
    turnTimeLimitSeconds: state.turnTimeLimitSeconds,
    computerLevel: state.computerLevel,
    advice: state.advice,
    rated: state.rated,
    rematchOf: state.rematchOf,
    organizerSeed: state.organizerSeed,
    commitment: state.commitment || row.serverSeedHash,
    chainHead: head,
    // Public once the game is over; a duplicate tournament game's seed is the round seed: secret
    // until every game of the round ended.
    serverSeed: isEnded(revealStatus) && !row.seedSealed ? row.serverSeed : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}

const toSel = (s: { dice: number[]; faces: Die[]; points: number } | null) =>
  s ? { dice: [...s.dice], faces: [...s.faces], points: s.points } : null;

export const viewOfLoaded = (g: LoadedGame): GameView => buildGameView(g.row, g.state, g.head, g.lastRolled, g.names);

export const toEventView = (e: StoredEvent): GameEventView => ({
  gameId: e.gameId,
  version: e.version,
  type: e.type,
  seat: e.seat,
  data: e.data,
  rollNumber: e.rollNumber,
  command: e.command as unknown as Record<string, unknown> | null,
  prevHash: e.prevHash,
  hash: e.hash,
  createdAt: e.createdAt,
});
