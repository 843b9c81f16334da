/**
 * Five-dice play: hold with a tap or the keys 1–5, roll with Space or R, every open box shows what
 * it would score now (the server's scoreOptions; a box the joker forbids is disabled), and a box
 * is scored after a confirm step. S moves the focus to the score sheet's first box that scores and
 * the arrow keys move it between those boxes (not 13 boxes' worth of Tab presses). Chips show every
 * player's total and switch the sheet shown.
 */
import { useEffect, useRef, useState } from 'react';
import { api, playMove, type BoxOption, type GameView } from './api';
import { Die, isTypingTarget } from './dice';
import { HintPanel } from './hint';
import { RatingTag } from './rating';
import { UPPER, boxName, seatName, type Act, type ChipRatings } from './util';

export function FiveDiceBoard(props: {
  game: GameView;
  myTurn: boolean;
  act: Act;
  busy: boolean;
  readOnly?: boolean;
  ratings?: ChipRatings;
}) {
  const { game, myTurn, act, busy, readOnly, ratings } = props;
  const five = game.fiveDice!;
  const [held, setHeld] = useState<number[]>(game.held);
  const [shownSeat, setShownSeat] = useState<number | null>(null);
  const [pending, setPending] = useState<BoxOption | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const sheetRef = useRef<HTMLTableElement>(null);
  const interactive = myTurn && !readOnly;
  const rolled = five.rollInTurn > 0 && game.dice.length === 5;
  const canHold = interactive && rolled && (game.rollsLeft ?? 0) > 0;
  const canRoll = interactive && (game.rollsLeft ?? 0) > 0 && !busy;
  const options = interactive && rolled ? five.scoreOptions : null;

  // A new state: the holds the server reports, no pending box, the sheet of whoever plays now.
  // (Keyed on the version only: a re-read of the same version must not undo a hold being chosen.)
  const serverHeld = game.held.join(',');
  useEffect(() => {
    setHeld(serverHeld ? serverHeld.split(',').map(Number) : []);
    setPending(null);
  }, [game.version, serverHeld]);
  useEffect(() => setShownSeat(null), [game.currentSeat]);
  useEffect(() => {
    if (pending) confirmRef.current?.focus();
  }, [pending]);

  const toggle = (i: number) => {
    if (!canHold) return;
    setHeld((h) => (h.includes(i) ? h.filter((x) => x !== i) : [...h, i].sort()));
  };
  const roll = () => {
    if (!canRoll) return;
    const body = { hold: rolled ? held : [] };
    void act(() =>
      playMove(game.id, 'roll', body, (init) =>
        api.POST('/v1/games/{id}/roll', { params: { path: { id: game.id } }, body, ...init }),
      ),
    );
  };
  const score = (box: string) =>
    void act(() => {
      const body = { box: box as BoxOption['box'] };
      return playMove(game.id, 'score', body, (init) =>
        api.POST('/v1/games/{id}/score', { params: { path: { id: game.id } }, body, ...init }),
      );
    });

  // The sheet's boxes that can be scored now, in sheet order.
  const scorable = () =>
    Array.from(sheetRef.current?.querySelectorAll<HTMLButtonElement>('button.box-option') ?? []).filter(
      (b) => !b.disabled,
    );
  const focusSheet = () => {
    const first = scorable()[0];
    if (first) first.focus();
    else sheetRef.current?.focus();
  };
  const keys = useRef({ toggle, roll, pending, setPending, focusSheet });
  keys.current = { toggle, roll, pending, setPending, focusSheet };
  useEffect(() => {
    if (!interactive) return;
    const onKey = (e: KeyboardEvent) => {
      if (isTypingTarget(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
      const k = keys.current;
      if (e.key === 'Escape' && k.pending) {
        k.setPending(null);
        return;
      }
      if (k.pending) return;
      if (/^[1-5]$/.test(e.key)) {
        e.preventDefault();
        k.toggle(Number(e.key) - 1);
      } else if (e.key === 'r' || e.key === 'R') {
        e.preventDefault();
        k.roll();
      } else if (e.key === 's' || e.key === 'S') {
        e.preventDefault();
        k.focusSheet();
      } else if (e.key === ' ' && !(e.target instanceof HTMLButtonElement)) {
        // On a focused button, Space presses that button instead.
        e.preventDefault();
        k.roll();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [interactive]);

  const seat = shownSeat ?? game.currentSeat ?? game.standings?.[0]?.seat ?? 0;
  const sheet = five.sheets.find((s) => s.seat === seat) ?? five.sheets[0];
  const showingCurrent = seat === game.currentSeat;
  const optionOf = (box: string) => (showingCurrent ? options?.boxes.find((o) => o.box === box) : undefined);
  const upperSum = sheet.upper;

  return (
    <div className={game.status === 'playing' ? 'board five-dice playing' : 'board five-dice'}>
      <div className="chips" role="group" aria-label="Players: choose whose score sheet to show">
        {five.sheets.map((s) => (
          <button
            key={s.seat}
            type="button"
            className={s.seat === game.currentSeat ? 'chip current' : 'chip'}
            aria-pressed={s.seat === seat}
            onClick={() => setShownSeat(s.seat)}
          >
            {seatName(game, s.seat)} <RatingTag game={game} seat={s.seat} ratings={ratings} />{' '}
            <strong>{s.total}</strong>
            {s.quit ? ' (quit)' : ''}
          </button>
        ))}
      </div>
      {game.status === 'playing' && (
        <div className="dice-area">
          <div className="dice" role="group" aria-label="Dice">
            {rolled ? (
              game.dice.map((face, i) => (
                <Die
                  key={i}
                  index={i}
                  face={face}
                  pressed={held.includes(i)}
                  pressedWord="held"
                  disabled={!canHold}
                  onToggle={() => toggle(i)}
                />
              ))
            ) : (
              <p className="muted">{myTurn ? 'Roll to start your turn.' : 'No dice rolled yet this turn.'}</p>
            )}
          </div>
          {interactive && (
            <div className="actions">
              <button type="button" className="primary" onClick={roll} disabled={!canRoll}>
                {rolled ? `Roll again (${game.rollsLeft} left)` : 'Roll'}
              </button>
              <span className="muted hint">Keys: 1–5 hold · Space or R roll · S score sheet (then ↑ ↓) · H hint</span>
            </div>
          )}
          <HintPanel game={game} interactive={interactive} />
          {options?.mustSacrifice && (
            <p className="notice" role="status">
              No open box scores: you must sacrifice one (it scores 0).
            </p>
          )}
          {options?.jokerActive && (
            <p className="notice" role="status">
              Joker: five of a kind with its upper box already filled. Follow the joker rule: the boxes it allows are
              enabled.
            </p>
          )}
          {options?.fiveOfAKind && options.boxes.some((b) => b.bonus > 0) && (
            <p className="notice" role="status">
              Extra five of a kind: +{Math.max(...options.boxes.map((b) => b.bonus))} bonus whichever allowed box you
              score.
            </p>
          )}
        </div>
      )}
      {pending && (
        <div className="confirm" role="dialog" aria-modal="false" aria-labelledby="confirm-text">
          <p id="confirm-text">
            Score {pending.points + pending.bonus} in {boxName(pending.box)}
            {pending.bonus ? ` (${pending.points} + ${pending.bonus} bonus)` : ''}?
          </p>
          <button
            ref={confirmRef}
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => {
              setPending(null);
              score(pending.box);
            }}
          >
            Confirm: score {boxName(pending.box)}
          </button>
          <button type="button" onClick={() => setPending(null)}>
            Cancel
          </button>
        </div>
      )}
      <table
        className="sheet"
        ref={sheetRef}
        tabIndex={-1}
        onKeyDown={(e) => {
          // Up and down move between the boxes that score now, from the one focused.
          if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
          const boxes = scorable();
          if (boxes.length === 0) return;
          e.preventDefault();
          const at = boxes.indexOf(document.activeElement as HTMLButtonElement);
          const next = e.key === 'ArrowDown' ? (at + 1) % boxes.length : (at <= 0 ? boxes.length : at) - 1;
          boxes[next].focus();
        }}
      >
        <caption>
          {seatName(game, sheet.seat)}’s score sheet{sheet.quit ? ' (quit)' : ''}
        </caption>
        <tbody>
          {sheet.boxes.map((b) => {
            const option = b.points === null ? optionOf(b.box) : undefined;
            return (
              <tr key={b.box} className={UPPER.includes(b.box) ? 'upper' : 'lower'}>
                <th scope="row">{boxName(b.box)}</th>
                <td>
                  {b.points !== null ? (
                    <span aria-label={`${boxName(b.box)}: ${b.points} points, filled`}>{b.points}</span>
                  ) : option ? (
                    <button
                      type="button"
                      className="box-option"
                      disabled={!option.allowed || busy}
                      aria-label={
                        option.allowed
                          ? `${boxName(b.box)}: score ${option.points + option.bonus} now`
                          : `${boxName(b.box)}: not allowed by the joker rule`
                      }
                      onClick={() => setPending(option)}
                    >
                      {option.allowed ? option.points + option.bonus : '—'}
                    </button>
                  ) : (
                    <span className="muted" aria-label={`${boxName(b.box)}: open`}>
                      ·
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Upper section</th>
            <td aria-label={`Upper section: ${upperSum} of 63`}>
              {upperSum} / 63{sheet.upperBonus ? ` (+${sheet.upperBonus} bonus)` : ''}
            </td>
          </tr>
          {sheet.extraBonus > 0 && (
            <tr>
              <th scope="row">Five-of-a-kind bonus</th>
              <td>{sheet.extraBonus}</td>
            </tr>
          )}
          <tr className="total-row">
            <th scope="row">Total</th>
            <td data-testid="sheet-total">{sheet.total}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
