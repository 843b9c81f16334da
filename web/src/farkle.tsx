/**
 * Farkle play: select scoring dice (each selection the server lists shows what it scores), set them
 * aside, roll the rest, bank; hot dice, the entry threshold and the last round are announced.
 * Keys: 1–6 select a die, S sets the selection aside, R rolls, B banks, H asks for a hint.
 */
import { useEffect, useRef, useState } from 'react';
import { api, playMove, type GameView } from './api';
import { Die, isTypingTarget } from './dice';
import { HintPanel } from './hint';
import { RatingTag } from './rating';
import { seatName, type Act, type ChipRatings } from './util';

const same = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export function FarkleBoard(props: {
  game: GameView;
  myTurn: boolean;
  act: Act;
  busy: boolean;
  readOnly?: boolean;
  ratings?: ChipRatings;
}) {
  const { game, myTurn, act, busy, readOnly, ratings } = props;
  const f = game.farkle!;
  const [selected, setSelected] = useState<number[]>([]);
  useEffect(() => setSelected([]), [game.version]);
  const interactive = myTurn && !readOnly && game.status === 'playing';
  const setAsideNow = f.setAside; // indices of this roll already set aside
  const rolled = game.dice.length > 0;
  const canSelect = interactive && rolled;
  const match = f.selections.find((s) => same(s.dice, selected));
  const hotDice = rolled && setAsideNow.length === game.dice.length && f.turnPoints > 0;
  const canRoll = interactive && (!rolled || setAsideNow.length > 0) && !busy;
  const me = game.currentSeat !== null ? f.players.find((p) => p.seat === game.currentSeat) : undefined;
  const canBank = interactive && f.turnPoints > 0 && setAsideNow.length > 0 && !busy;
  const belowEntry = !!me && !me.onBoard && f.entryThreshold > 0;

  const toggle = (i: number) => {
    if (!canSelect || setAsideNow.includes(i)) return;
    setSelected((s) => (s.includes(i) ? s.filter((x) => x !== i) : [...s, i].sort((a, b) => a - b)));
  };
  const setAside = (dice: number[]) =>
    void act(() =>
      playMove(game.id, 'setAside', { dice }, (init) =>
        api.POST('/v1/games/{id}/set-aside', { params: { path: { id: game.id } }, body: { dice }, ...init }),
      ),
    );
  const roll = () => {
    if (canRoll)
      void act(() =>
        playMove(game.id, 'roll', {}, (init) =>
          api.POST('/v1/games/{id}/roll', { params: { path: { id: game.id } }, body: {}, ...init }),
        ),
      );
  };
  const bank = () => {
    if (canBank)
      void act(() =>
        playMove(game.id, 'bank', {}, (init) =>
          api.POST('/v1/games/{id}/bank', { params: { path: { id: game.id } }, body: {}, ...init }),
        ),
      );
  };
  const keys = useRef({ toggle, roll, bank, selected, match });
  keys.current = { toggle, roll, bank, selected, match };
  useEffect(() => {
    if (!interactive) return;
    const onKey = (e: KeyboardEvent) => {
      if (isTypingTarget(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
      const k = keys.current;
      if (/^[1-6]$/.test(e.key)) k.toggle(Number(e.key) - 1);
      else if (e.key === 'r' || e.key === 'R') k.roll();
      else if (e.key === 'b' || e.key === 'B') k.bank();
      else if ((e.key === 's' || e.key === 'S') && k.match) setAside(k.selected);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [interactive]);

  return (
    <div className="board farkle">
      <div className="chips" role="group" aria-label="Players">
        {f.players.map((p) => (
          <span key={p.seat} className={p.seat === game.currentSeat ? 'chip current' : 'chip'}>
            {seatName(game, p.seat)} <RatingTag game={game} seat={p.seat} ratings={ratings} />{' '}
            <strong>{p.total}</strong>
            {!p.onBoard ? ' (not on the board)' : ''}
            {p.quit ? ' (quit)' : ''}
          </span>
        ))}
      </div>
      <p className="muted">
        Target {f.target}
        {f.entryThreshold ? ` · ${f.entryThreshold} in one turn to get on the board` : ''}
      </p>
      {f.lastRoundSeats && (
        <p className="banner" role="status">
          {lastRoundText(game, f.lastRoundSeats)}
        </p>
      )}
      {game.status === 'playing' && (
        <div className="dice-area">
          <p>
            Turn points: <strong>{f.turnPoints}</strong> · dice to roll: {f.diceLeft}
          </p>
          {f.setAsideFaces.length > 0 && <p className="muted">Set aside this turn: {f.setAsideFaces.join(' ')}</p>}
          <div className="dice" role="group" aria-label="Dice">
            {rolled ? (
              game.dice.map((face, i) => (
                <Die
                  key={i}
                  index={i}
                  face={face}
                  pressed={selected.includes(i) || setAsideNow.includes(i)}
                  pressedWord={setAsideNow.includes(i) ? 'set aside' : 'selected'}
                  disabled={!canSelect || setAsideNow.includes(i)}
                  onToggle={() => toggle(i)}
                />
              ))
            ) : (
              <p className="muted">{myTurn ? 'Roll to start your turn.' : 'No dice rolled yet this turn.'}</p>
            )}
          </div>
          {hotDice && (
            <p className="notice" role="status">
              Hot dice! Every die scored: roll all six again, or bank.
            </p>
          )}
          {interactive && belowEntry && (
            <p className="notice">
              You are not on the board yet: bank at least {f.entryThreshold} in one turn (this turn: {f.turnPoints}).
            </p>
          )}
          {interactive && rolled && setAsideNow.length === 0 && (
            <>
              <p aria-live="polite">
                {selected.length === 0
                  ? 'Select scoring dice.'
                  : match
                    ? `The selection scores ${match.points}.`
                    : 'That selection does not score.'}
              </p>
              <div className="selections" role="group" aria-label="Scoring selections">
                {f.selections.map((s) => (
                  <button
                    key={s.dice.join(',')}
                    type="button"
                    disabled={busy}
                    onClick={() => setAside(s.dice)}
                    // The accessible name starts with the visible text (WCAG 2.5.3, label in name).
                    aria-label={`${s.faces.join(' ')} → ${s.points}: set these aside`}
                  >
                    {s.faces.join(' ')} → {s.points}
                  </button>
                ))}
              </div>
            </>
          )}
          {interactive && (
            <div className="actions">
              {rolled && setAsideNow.length === 0 && (
                <button type="button" disabled={!match || busy} onClick={() => setAside(selected)}>
                  Set aside selected{match ? ` (${match.points})` : ''}
                </button>
              )}
              <button type="button" className="primary" disabled={!canRoll} onClick={roll}>
                {hotDice ? 'Roll six dice' : rolled ? `Roll ${f.diceLeft} dice` : 'Roll'}
              </button>
              <button type="button" disabled={!canBank} onClick={bank}>
                Bank {f.turnPoints}
              </button>
              <span className="muted hint">Keys: 1–6 select · S set aside · R roll · B bank · H hint</span>
            </div>
          )}
          <HintPanel game={game} interactive={interactive} />
        </div>
      )}
    </div>
  );
}

/** `lastRoundSeats` lists who plays after the current turn; the seat on turn now is playing a last turn too. */
function lastRoundText(game: GameView, after: number[]): string {
  const now = game.status === 'playing' ? game.currentSeat : null;
  if (now === null) return 'Last round!';
  const then = after.length > 0 ? `; still to play: ${after.map((s) => seatName(game, s)).join(', ')}` : '';
  return `Last round! ${seatName(game, now)} is playing a last turn${then}.`;
}
