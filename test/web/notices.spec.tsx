/**
 * The notices a page cannot provoke on purpose (its dice come from the commit–reveal seeds): the
 * joker, the extra five-of-a-kind bonus, "must sacrifice", Farkle's entry threshold and last round.
 * Each state is reached by
 * playing the pure rules with chosen dice; the service's own view builder (buildGameView, what
 * GET /v1/games/{id} sends) turns it into the JSON the page receives, and the page's real
 * FiveDiceBoard / FarkleBoard render it. The browser suites (web-client.e2e-spec.ts) cover everything reachable
 * with fair dice.
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

const GAME = '00000000-0000-4000-8000-0000000000aa';
const ADA = 'a0000000-0000-4000-8000-0000000000aa';

function apply(state: GameState, command: GameCommand, dice: number[] = []): GameState {
  const events = decideGame(state, command, scriptedDice(dice));
  if (events instanceof RuleError) throw new Error(`${events.code}: ${events.message}`);
  return events.reduce(evolveGame, state);
}
const roll = (state: GameState, dice: number[]) =>
  apply(state, { type: 'play', playerId: ADA, move: { type: 'roll', hold: [] } }, dice);
const score = (state: GameState, box: string) =>
  apply(state, { type: 'play', playerId: ADA, move: { type: 'score', box } } as unknown as GameCommand);

/** A started game of Ada's: solo `penta`, or as asked (hot seats are Ada's too). */
function started(
  game: { ruleSet?: string; options?: Record<string, unknown>; seatCount?: number; startDice?: number[] } = {},
): GameState {
  const seatCount = game.seatCount ?? 1;
  const created = apply(emptyGame(GAME), {
    type: 'create',
    gameId: GAME,
    ruleSet: game.ruleSet ?? 'penta',
    options: game.options ?? {},
    seatCount,
    visibility: 'public',
    creatorId: ADA,
    hotSeats: seatCount - 1,
    commitment: 'c'.repeat(64),
    organizerSeed: null,
    clientSeeds: Array.from({ length: seatCount }, (_, i) => `seed-${i}`),
    turnTimeLimitSeconds: null,
  } as GameCommand);
  return apply(created, { type: 'start', playerId: ADA }, game.startDice);
}

/** What the page receives for this state: the service's view, through JSON like the wire. */
function wireView(state: GameState): GameView {
  const now = new Date('2026-12-01T10:00:00Z');
  const row = {
    id: GAME,
    ruleSet: state.ruleSet,
    family: state.family,
    status: state.status,
    version: state.version,
    visibility: state.visibility,
    creatorId: ADA,
    seatCount: state.seatCount,
    serverSeed: 'ab'.repeat(32),
    serverSeedHash: 'c'.repeat(64),
    createdAt: now,
    updatedAt: now,
    startedAt: now,
    finishedAt: null,
  };
  const view = buildGameView(row, state, 'h'.repeat(64), null, { [ADA]: 'Ada' });
  return JSON.parse(JSON.stringify(view)) as GameView;
}

/** The board's markup, as the page renders it for the player to move. */
function boardHtml(state: GameState): string {
  const game = wireView(state);
  const act = () => Promise.resolve(true);
  return renderToStaticMarkup(
    game.family === 'farkle' ? (
      <FarkleBoard game={game} myTurn act={act} busy={false} />
    ) : (
      <FiveDiceBoard game={game} myTurn act={act} busy={false} />
    ),
  );
}

/** The board's text as a person reads it (tags stripped, whitespace collapsed). */
function pageText(state: GameState): string {
  return boardHtml(state)
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, ' ');
}

const MUST_SACRIFICE = 'No open box scores: you must sacrifice one (it scores 0).';
const JOKER = 'Joker: five of a kind with its upper box already filled.';

describe('notices, rendered by the page from the service’s view', () => {
  it('an ordinary roll shows none of them', () => {
    const text = pageText(roll(started(), [1, 2, 3, 4, 6]));
    expect(text).not.toContain(MUST_SACRIFICE);
    expect(text).not.toContain(JOKER);
    expect(text).not.toContain('Extra five of a kind');
  });

  it('a second five of a kind after Penta scored 50: the joker and the +100 bonus, then the bonus on the sheet', () => {
    let state = score(roll(started(), [4, 4, 4, 4, 4]), 'fiveOfAKind');
    state = roll(state, [4, 4, 4, 4, 4]);
    const text = pageText(state);
    expect(text).toContain(JOKER);
    expect(text).toContain('Extra five of a kind: +100 bonus whichever allowed box you score.');
    state = score(state, 'fours');
    const after = pageText(state);
    expect(after).toMatch(/Five-of-a-kind bonus 100/);
    expect(after).not.toContain(JOKER);
  });

  it('no open box scores: the must-sacrifice notice', () => {
    let state = started();
    // Fill every box but Full house and Large straight with a roll that scores in neither.
    for (const box of ['ones', 'twos', 'threes', 'fours', 'fives', 'sixes', 'threeOfAKind', 'fourOfAKind'])
      state = score(roll(state, [1, 1, 3, 4, 6]), box);
    for (const box of ['smallStraight', 'fiveOfAKind', 'chance']) state = score(roll(state, [1, 1, 3, 4, 6]), box);
    expect(pageText(roll(state, [2, 3, 4, 5, 6]))).not.toContain(MUST_SACRIFICE); // a large straight: 40
    expect(pageText(roll(state, [1, 1, 3, 4, 6]))).toContain(MUST_SACRIFICE);
  });

  it('Farkle: below the entry threshold the page says how much to bank; reaching the target announces the last round', () => {
    // Two seats (the second a hot seat), target 1,000, 500 to get on the board; seat 1 wins the roll-off.
    let state = started({
      ruleSet: 'farkle',
      options: { target: 1000, entryThreshold: 500 },
      seatCount: 2,
      startDice: [6, 1],
    });
    const farkleMove = (move: Record<string, unknown>, dice: number[] = []) =>
      apply(state, { type: 'play', playerId: ADA, move } as GameCommand, dice);
    state = farkleMove({ type: 'roll' }, [1, 1, 1, 2, 3, 4]);
    expect(pageText(state)).toContain('You are not on the board yet: bank at least 500 in one turn (this turn: 0).');
    // Every scoring selection's accessible name contains its visible text (axe: label-content-name-mismatch).
    const buttons = [...boardHtml(state).matchAll(/<button[^>]*aria-label="([^"]*)"[^>]*>(.*?)<\/button>/g)].filter(
      ([, , inner]) => inner.includes('→'),
    );
    expect(buttons.length).toBeGreaterThan(0);
    for (const [, label, inner] of buttons) {
      const visible = inner
        .replace(/<[^>]+>/g, '')
        .replace(/\s+/g, ' ')
        .trim();
      expect(label.replace(/&gt;/g, '>')).toContain(visible);
    }
    state = farkleMove({ type: 'bank', setAside: [0, 1, 2] });
    const text = pageText(state);
    const last = wireView(state).currentSeat! + 1;
    expect(text).toContain(`Last round! Ada (seat ${last}) is playing a last turn.`);
    // The banker is on the board now; the last player is not yet, and is told so.
    const banker = 2 - wireView(state).currentSeat!;
    expect(text).toContain(`Ada (seat ${banker}) 1000 `);
    expect(text).not.toContain(`Ada (seat ${banker}) 1000 (not on the board)`);
    expect(text).toContain('You are not on the board yet: bank at least 500 in one turn (this turn: 0).');
  });
});
