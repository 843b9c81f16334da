/**
 * The players' ratings in a rated game's chips (docs/ratings.md): the page's real boards render
 * the service's own view of a rated game with the ratings the page read for its players.
 */
// First: the page globals web/src/api.ts reads when it loads.
import './page-globals';
import { renderToStaticMarkup } from 'react-dom/server';
import { scriptedDice } from '@fairdice/core/rules/core/dice';
import { RuleError } from '@fairdice/core/rules/core/errors';
import { decideGame, emptyGame, evolveGame, type GameCommand, type GameState } from '@fairdice/core/rules/game';
import { buildGameView } from '../../src/games/game-view';
import type { GameView } from '../../web/src/api';
import { FarkleBoard } from '../../web/src/farkle';
import { FiveDiceBoard } from '../../web/src/five-dice';
import type { ChipRatings } from '../../web/src/util';

const GAME = '00000000-0000-4000-8000-0000000000bb';
const ADA = 'a0000000-0000-4000-8000-0000000000bb';
const BOB = 'b0000000-0000-4000-8000-0000000000bb';

function apply(state: GameState, command: GameCommand, dice: number[] = []): GameState {
  const events = decideGame(state, command, scriptedDice(dice));
  if (events instanceof RuleError) throw new Error(`${events.code}: ${events.message}`);
  return events.reduce(evolveGame, state);
}

/** A started two-player game of Ada and Bob, rated or not. */
function started(ruleSet: 'simple' | 'farkle', rated: boolean): GameView {
  let s = apply(emptyGame(GAME), {
    type: 'create',
    gameId: GAME,
    ruleSet,
    options: {},
    seatCount: 2,
    visibility: 'public',
    creatorId: ADA,
    hotSeats: 0,
    commitment: 'c'.repeat(64),
    turnTimeLimitSeconds: 3600,
    advice: 'forbidden',
    ...(rated ? { rated: true } : {}),
  });
  s = apply(s, { type: 'join', playerId: BOB, clientSeed: 'b' });
  s = apply(
    s,
    { type: 'start', playerId: ADA, generatedSeeds: [{ seat: 0, clientSeed: 'a' }] },
    ruleSet === 'farkle' ? [6, 1] : [],
  );
  const now = new Date('2026-12-03T10:00:00Z');
  const row = {
    id: GAME,
    ruleSet: s.ruleSet,
    family: s.family,
    status: s.status,
    version: s.version,
    visibility: s.visibility,
    creatorId: ADA,
    seatCount: 2,
    serverSeed: 'ab'.repeat(32),
    serverSeedHash: 'c'.repeat(64),
    createdAt: now,
    updatedAt: now,
    startedAt: now,
    finishedAt: null,
  };
  const view = buildGameView(row, s, 'h'.repeat(64), null, { [ADA]: 'Ada', [BOB]: 'Bob' });
  return JSON.parse(JSON.stringify(view)) as GameView;
}

const RATINGS: ChipRatings = {
  [ADA]: { rating: 1662.310893906, provisional: true },
  [BOB]: { rating: 1480.5, provisional: false },
};

const chipsText = (html: string) =>
  (html.match(/<div class="chips"[\s\S]*?<\/div>/)?.[0] ?? '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const act = () => Promise.resolve(true);

describe('rating chips', () => {
  it('shows each player’s rating, rounded, "?" while provisional, in a rated five-dice game', () => {
    const game = started('simple', true);
    expect(game.rated).toBe(true);
    const html = renderToStaticMarkup(<FiveDiceBoard game={game} myTurn act={act} busy={false} ratings={RATINGS} />);
    expect(chipsText(html)).toBe('Ada 1662? 0 Bob 1481 0');
    expect(html).toContain('title="Rating in simple (provisional)"');
  });

  it('shows them in a rated Farkle game too', () => {
    const game = started('farkle', true);
    const html = renderToStaticMarkup(<FarkleBoard game={game} myTurn act={act} busy={false} ratings={RATINGS} />);
    expect(chipsText(html)).toBe('Ada 1662? 0 (not on the board) Bob 1481 0 (not on the board)');
  });

  it('shows no rating when the page has none (an unrated game: the page reads none)', () => {
    const game = started('simple', false);
    expect(game.rated).toBe(false);
    const html = renderToStaticMarkup(<FiveDiceBoard game={game} myTurn act={act} busy={false} />);
    expect(chipsText(html)).toBe('Ada 0 Bob 0');
    expect(html).not.toContain('class="rating"');
  });
});
