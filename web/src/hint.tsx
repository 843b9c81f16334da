/**
 * The Hint panel (button or the key H): the service's advice for the player to move
 * (GET /v1/games/{id}/advice). Five dice: the best holds or boxes with their expected final scores.
 * Farkle: the best set-asides and whether to bank or roll, valued in expected turns to the target
 * (or, in the last round, the chance to beat the leader). A game that forbids advice says so instead
 * of offering the button; a table still being computed (503 TABLE_BUILDING) is a sentence with the
 * wait the service gives.
 */
import { useEffect, useRef, useState } from 'react';
import { adviceApi, sentence, tableRetrySeconds, unwrap, type GameView } from './api';
import { isTypingTarget } from './dice';
import { boxName } from './util';

type Advice = Awaited<ReturnType<typeof fetchAdvice>>;
type FiveDiceAdvice = NonNullable<Advice['fiveDice']>;
type FarkleAdvice = NonNullable<Advice['farkle']>;

async function fetchAdvice(gameId: string) {
  return unwrap(await adviceApi.GET('/v1/games/{id}/advice', { params: { path: { id: gameId } } }));
}

const fmt = (x: number) => x.toFixed(1);

export function HintPanel(props: { game: GameView; interactive: boolean }) {
  const { game, interactive } = props;
  const [advice, setAdvice] = useState<Advice | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const forbidden = game.advice === 'forbidden';

  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Advice is for one state: a new version clears it (and any retry still waiting).
  useEffect(() => {
    setAdvice(null);
    setMessage(null);
    return () => clearTimeout(retryTimer.current);
  }, [game.version]);

  const ask = async () => {
    if (forbidden || !interactive || loading) return;
    clearTimeout(retryTimer.current);
    setLoading(true);
    setMessage(null);
    try {
      setAdvice(await fetchAdvice(game.id));
    } catch (err) {
      const wait = tableRetrySeconds(err);
      if (wait !== null) {
        setMessage(`Advice is being prepared, try again in ${wait} s. (This page asks again by itself.)`);
        retryTimer.current = setTimeout(() => void askRef.current(), wait * 1000);
      } else setMessage(sentence(err));
    } finally {
      setLoading(false);
    }
  };
  const askRef = useRef(ask);
  askRef.current = ask;
  useEffect(() => {
    if (!interactive || forbidden) return;
    const onKey = (e: KeyboardEvent) => {
      if (isTypingTarget(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === 'h' || e.key === 'H') {
        e.preventDefault();
        void askRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [interactive, forbidden]);

  if (!interactive) return null;
  if (forbidden) return <p className="muted">This game does not allow advice, so there is no hint.</p>;
  return (
    <section className="hint" aria-label="Hint">
      <button type="button" onClick={() => void ask()} disabled={loading}>
        Hint (H)
      </button>
      {message && <p role="status">{message}</p>}
      {advice?.fiveDice && <FiveDiceHint advice={advice.fiveDice} />}
      {advice?.farkle && <FarkleHint advice={advice.farkle} />}
    </section>
  );
}

function FiveDiceHint({ advice }: { advice: FiveDiceAdvice }) {
  return (
    <div role="status">
      <p>
        Best move:{' '}
        {advice.best.action === 'roll'
          ? 'roll'
          : advice.best.action === 'hold'
            ? `keep ${(advice.holds[0]?.kept ?? []).join(', ') || 'nothing'} and roll`
            : `score ${boxName(advice.best.box ?? '')}`}{' '}
        (expected final score {fmt(advice.best.expected)})
      </p>
      {advice.holds.length > 0 && (
        <ol aria-label="Best holds">
          {advice.holds.slice(0, 3).map((h) => (
            <li key={h.kept.join(',')}>
              Keep {h.kept.join(', ') || 'nothing'}: {fmt(h.expected)}
            </li>
          ))}
        </ol>
      )}
      {advice.boxes.length > 0 && (
        <ol aria-label="Best boxes">
          {advice.boxes.slice(0, 3).map((b) => (
            <li key={b.box}>
              {boxName(b.box)} ({b.points + b.bonus}): {fmt(b.expected)}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** Farkle values are expected turns to the target (fewer is better) or, in the last round, a chance. */
function FarkleHint({ advice }: { advice: FarkleAdvice }) {
  const value = (x: number | null) =>
    x === null
      ? 'not allowed'
      : advice.objective === 'beatLeader'
        ? `${(x * 100).toFixed(1)} % chance to beat the leader`
        : `${fmt(x)} expected turns to the target`;
  const best = advice.best;
  const bestSetAside = best?.action === 'setAside' ? advice.setAsides[0] : undefined;
  return (
    <div role="status">
      <p>
        {best === null
          ? 'No scoring dice: this roll is a farkle.'
          : bestSetAside
            ? `Best move: set aside ${bestSetAside.faces.join(' ')} (${bestSetAside.points}), then ${best.then === 'bank' ? 'bank' : 'roll on'}`
            : `Best move: ${best.action === 'bank' ? 'bank' : 'roll'}`}
        {best !== null && ` (${value(best.value)})`}
      </p>
      {advice.setAsides.length > 1 && (
        <ol aria-label="Best set-asides">
          {advice.setAsides.slice(0, 3).map((a) => (
            <li key={a.dice.join(',')}>
              {a.faces.join(' ')} ({a.points}), then {a.then === 'bank' ? 'bank' : 'roll'}: {value(a.value)}
            </li>
          ))}
        </ol>
      )}
      {advice.dice === null && advice.turnPoints > 0 && (
        <ul aria-label="Bank or roll">
          <li>Bank: {value(advice.bank)}</li>
          <li>Roll: {value(advice.roll)}</li>
        </ul>
      )}
    </div>
  );
}
