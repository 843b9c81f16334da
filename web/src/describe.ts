import type { GameEvent, GameView } from './api';
import { boxName, seatName } from './util';

/** One event of the stream as a sentence for the feed. */
export function describeEvent(game: GameView, event: GameEvent): string {
  const seat = (event as { seat?: number | null }).seat;
  const who = seat === null || seat === undefined ? 'The game' : seatName(game, seat);
  const d = (event.data ?? {}) as Record<string, unknown>;
  switch (event.type) {
    case 'gameCreated':
      return 'The game was created and its commitment published.';
    case 'seatTaken':
      return `${who} took a seat.`;
    case 'seatLeft':
      return `${who} left.`;
    case 'seedSet':
      return `${who} set a seed.`;
    case 'gameStarted':
      return 'The game started.';
    case 'rolled':
      return `${who} rolled ${(d.dice as number[] | undefined)?.join(' ') ?? ''}.`;
    case 'scored':
      return `${who} scored ${String(d.points)} in ${boxName(String(d.box))}${Number(d.bonus) ? ` (+${String(d.bonus)} bonus)` : ''}.`;
    case 'setAside':
      return `${who} set aside ${(d.faces as number[]).join(' ')} for ${String(d.points)}${d.hotDice ? ': hot dice!' : '.'}`;
    case 'farkled':
      return `${who} farkled and lost ${String(d.lost)}.`;
    case 'banked':
      return `${who} banked ${String(d.points)} (total ${String(d.total)}).`;
    case 'busted':
      return `${who} went over the target and lost ${String(d.lost)}.`;
    case 'passed':
      return `${who} passed.`;
    case 'penalty':
      return `${who} lost ${String(d.points)} for three farkles in a row.`;
    case 'lastRound':
      return `${who} reached the target: last round!`;
    case 'rollOff':
      return `Roll-off to start: ${(d.dice as number[]).join(', ')}.`;
    case 'turnStarted':
      return `${who}'s turn.`;
    case 'quit':
      return `${who} quit.`;
    case 'finished':
      return 'Every sheet is full: the totals are final.';
    case 'gameFinished':
      return 'The game is over.';
    case 'gameAbandoned':
      return d.reason === 'cancelled'
        ? 'The creator cancelled the game.'
        : d.reason === 'expired'
          ? 'The game expired: it never started.'
          : 'The game was abandoned: nobody moved for too long.';
    case 'computerSeated':
      // Not seatName: that already names the seat a computer's.
      return `${seat === null || seat === undefined ? 'A seat' : `Seat ${seat + 1}`} is taken by a computer player (${String(d.level)}).`;
    default:
      return `${who}: ${(event as { type: string }).type}.`;
  }
}
