/** The lobby: my inbox (most urgent first), open games to join, my games, and a new game. */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  api,
  FairdiceError,
  followMyEvents,
  randomSeed,
  sentence,
  unwrap,
  type GameSummary,
  type InboxItem,
  type MyChallenges,
  type RuleSet,
  type RuleSetName,
  type StoredPlayer,
} from './api';
import { NotificationsNotAllowed, pushIsOn, pushSupported, turnPushOff, turnPushOn } from './push';
import { PlayNow } from './seeks';
import { RULE_SET_TITLES, deadlineText } from './util';
import { MyChallengesSection, OpenChallenge } from './challenges';

export function Home({ me }: { me: StoredPlayer }) {
  const [inbox, setInbox] = useState<InboxItem[] | null>(null);
  const [open, setOpen] = useState<GameSummary[] | null>(null);
  const [mine, setMine] = useState<GameSummary[] | null>(null);
  const [challenges, setChallenges] = useState<MyChallenges | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Play now waits for gameStarted on the same stream; the list of seeks is read again on my events.
  const onGameStarted = useRef<(() => void) | null>(null);
  const [changed, setChanged] = useState(0);
  // Loaded once, then again whenever my event stream says something changed (a turn passed to me,
  // a game of mine started or ended, a seat was taken) or the tab comes back into view: no polling.
  const refresh = useCallback(async () => {
    try {
      const [i, o, m, c] = await Promise.all([
        api.GET('/v1/inbox', { params: { query: { limit: 50 } } }).then(unwrap),
        api.GET('/v1/games', { params: { query: { scope: 'open', limit: 20 } } }).then(unwrap),
        api.GET('/v1/games', { params: { query: { scope: 'mine', limit: 20 } } }).then(unwrap),
        api.GET('/v1/challenges').then(unwrap),
      ]);
      setChallenges(c);
      setInbox(i.items);
      setOpen(o.items);
      setMine(m.items);
      setError(null);
      document.title = i.items.length ? `(${i.items.length}) Your move · fairdice` : 'fairdice';
    } catch (err) {
      setError(sentence(err));
    }
  }, []);
  useEffect(() => {
    void refresh();
    const stop = followMyEvents((event) => {
      void refresh();
      setChanged((n) => n + 1);
      if (event === null || event.type === 'gameStarted') onGameStarted.current?.();
      if (event?.type === 'yourTurn') notifyYourTurn(event.data.gameId);
      // My challenge was accepted: its game started, go and play it.
      if (event?.type === 'challengeAccepted' && event.data.challengerId === me.id && event.data.gameId)
        location.hash = `#/game/${event.data.gameId}`;
    });
    const onVisible = () => {
      if (!document.hidden) void refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [refresh, me.id]);
  return (
    <div className="home">
      <h1>Lobby</h1>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <MyChallengesSection list={challenges} onChange={() => void refresh()} />
      {challenges && challenges.incoming.length === 0 && challenges.outgoing.length === 0 && <OpenChallenge />}
      <section aria-labelledby="inbox-h">
        <h2 id="inbox-h">Your move</h2>
        {inbox === null ? (
          <p>Loading…</p>
        ) : inbox.length === 0 ? (
          <p>No game is waiting for you.</p>
        ) : (
          <ul className="list">
            {inbox.map((i) => (
              <li key={i.gameId}>
                <a href={`#/game/${i.gameId}`}>
                  {RULE_SET_TITLES[i.ruleSet]} · {i.seatCount} {i.seatCount === 1 ? 'seat' : 'seats'}
                </a>{' '}
                <span className="muted">{deadlineText(i.deadline)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <PlayNow me={me} onGameStarted={onGameStarted} changed={changed} />
      <NotifyToggle me={me} />
      <NewGame me={me} />
      <section aria-labelledby="open-h">
        <h2 id="open-h">Open games</h2>
        {open === null ? (
          <p>Loading…</p>
        ) : open.length === 0 ? (
          <p>No open game right now: create one.</p>
        ) : (
          <ul className="list">
            {open.map((g) => (
              <li key={g.id}>
                <a href={`#/game/${g.id}`}>
                  {RULE_SET_TITLES[g.ruleSet]} · {g.seatsTaken} of {g.seatCount} seats taken
                  {g.creatorId === me.id ? ' · yours' : ''}
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="mine-h">
        <h2 id="mine-h">Your games</h2>
        {mine === null ? (
          <p>Loading…</p>
        ) : mine.length === 0 ? (
          <p>You have not played yet.</p>
        ) : (
          <ul className="list">
            {mine.map((g) => (
              <li key={g.id}>
                <a href={`#/game/${g.id}`}>
                  {RULE_SET_TITLES[g.ruleSet]} · {g.status}
                  {g.awaitingMyMove ? ' · your move' : ''}
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export const TIME_LIMITS: Array<[string, number | undefined]> = [
  ['No limit', undefined],
  ['1 minute', 60],
  ['10 minutes', 600],
  ['1 hour', 3600],
  ['1 day', 86_400],
  ['3 days', 259_200],
];

function NewGame({ me }: { me: StoredPlayer }) {
  const [ruleSets, setRuleSets] = useState<RuleSet[]>([]);
  const [ruleSet, setRuleSet] = useState<RuleSetName>('penta');
  const [seats, setSeats] = useState(1);
  const [hotSeats, setHotSeats] = useState(0);
  // One name per hot seat, in seat order (seat 2 first); an empty one is sent as its placeholder.
  const [hotSeatNames, setHotSeatNames] = useState<string[]>([]);
  const [visibility, setVisibility] = useState<'public' | 'private'>('public');
  const [limit, setLimit] = useState(0);
  const [allowAdvice, setAllowAdvice] = useState(true);
  const [computers, setComputers] = useState(0);
  const [level, setLevel] = useState<'beginner' | 'standard' | 'optimal' | 'expert'>('standard');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api
      .GET('/v1/rule-sets')
      .then(unwrap)
      .then((r) => setRuleSets(r))
      .catch((err: unknown) => setError(sentence(err)));
  }, []);
  const chosen = ruleSets.find((r) => r.name === ruleSet);
  const hotSeatCount = Math.max(0, Math.min(hotSeats, seats - 1));
  const names = Array.from({ length: hotSeatCount }, (_, i) => hotSeatNames[i]?.trim() || defaultHotSeatName(i));
  const create = async () => {
    const game = unwrap(
      await api.POST('/v1/games', {
        body: {
          ruleSet,
          seats,
          visibility,
          advice: allowAdvice ? 'allowed' : 'forbidden',
          ...(hotSeatCount > 0 ? { hotSeats: hotSeatCount, hotSeatNames: names } : {}),
          // The computer takes the last seats (the creator's hot seats come first).
          ...(computers > 0
            ? { computerSeats: Array.from({ length: computers }, (_, i) => ({ seat: seats - 1 - i, level })) }
            : {}),
          ...(TIME_LIMITS[limit][1] ? { turnTimeLimitSeconds: TIME_LIMITS[limit][1] } : {}),
        },
      }),
    );
    // My own seed, given after the commitment was published (docs/fairness.md): it protects me.
    unwrap(
      await api.PUT('/v1/games/{id}/seeds', { params: { path: { id: game.id } }, body: { clientSeed: randomSeed() } }),
    );
    // Every seat is mine (hot seats) or the computer's: nobody is to wait for, so start it now,
    // with seeds of my own for the hot seats (docs/web.md, "Creating a game").
    if (1 + hotSeatCount + computers >= seats)
      unwrap(
        await api.POST('/v1/games/{id}/start', {
          params: { path: { id: game.id } },
          body: { seeds: names.map((_, i) => ({ seat: i + 1, clientSeed: randomSeed() })) },
        }),
      );
    location.hash = `#/game/${game.id}`;
  };
  return (
    <section aria-labelledby="new-h">
      <h2 id="new-h">New game</h2>
      <form
        className="new-game"
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          create()
            .catch((err: unknown) => setError(sentence(err)))
            .finally(() => setBusy(false));
        }}
      >
        <label>
          Rule set
          <select value={ruleSet} onChange={(e) => setRuleSet(e.target.value as RuleSetName)}>
            {(ruleSets.length ? ruleSets.map((r) => r.name) : (['penta', 'simple', 'bonus', 'farkle'] as const)).map(
              (name) => (
                <option key={name} value={name}>
                  {RULE_SET_TITLES[name]}
                </option>
              ),
            )}
          </select>
        </label>
        <label>
          Seats
          <input
            type="number"
            min={chosen?.minSeats ?? 1}
            max={chosen?.maxSeats ?? 8}
            value={seats}
            onChange={(e) => setSeats(Number(e.target.value))}
          />
        </label>
        <label>
          Hot seats (players on this screen besides you)
          <input
            type="number"
            min={0}
            max={Math.max(0, seats - 1)}
            value={hotSeats}
            onChange={(e) => setHotSeats(Number(e.target.value))}
          />
        </label>
        {names.map((_, i) => (
          <label key={i}>
            Name of hot seat {i + 1} (seat {i + 2})
            <input
              value={hotSeatNames[i] ?? ''}
              placeholder={defaultHotSeatName(i)}
              maxLength={40}
              autoComplete="off"
              onChange={(e) =>
                setHotSeatNames((all) => {
                  const next = [...all];
                  next[i] = e.target.value;
                  return next;
                })
              }
            />
          </label>
        ))}
        <label>
          Computer opponents
          <input
            type="number"
            min={0}
            max={Math.max(0, seats - 1)}
            value={computers}
            onChange={(e) => setComputers(Number(e.target.value))}
          />
        </label>
        {computers > 0 && (
          <label>
            Computer level
            <select value={level} onChange={(e) => setLevel(e.target.value as typeof level)}>
              <option value="beginner">Beginner</option>
              <option value="standard">Standard</option>
              <option value="optimal">Optimal (best average)</option>
              {/* Plays for the win: the five-dice endgame, and two-seat Farkle only (docs/advice.md). */}
              <option value="expert">Expert (plays to win)</option>
            </select>
          </label>
        )}
        <label>
          Visibility
          <select value={visibility} onChange={(e) => setVisibility(e.target.value as 'public' | 'private')}>
            <option value="public">Public: listed in the lobby</option>
            <option value="private">Private: only by link</option>
          </select>
        </label>
        <label>
          Time per turn
          <select value={limit} onChange={(e) => setLimit(Number(e.target.value))}>
            {TIME_LIMITS.map(([label], i) => (
              <option key={label} value={i}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={allowAdvice} onChange={(e) => setAllowAdvice(e.target.checked)} />
          Allow advice (the Hint button during play)
        </label>
        {chosen && <p className="muted">{chosen.description}</p>}
        <button type="submit" disabled={busy}>
          {1 + hotSeatCount + computers >= seats ? 'Create and start the game' : 'Create game'}
        </button>
        <span className="muted">as {me.displayName}</span>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </section>
  );
}

/** A hot seat left unnamed plays as "Player 2", "Player 3"… (its seat number). */
const defaultHotSeatName = (i: number) => `Player ${i + 2}`;

/** A system notification while this tab is in the background (permission given); a click opens the game. */
function notifyYourTurn(gameId: string): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted' || !document.hidden) return;
  const n = new Notification('Your turn · fairdice', { body: 'A game is waiting for your move.', tag: gameId });
  n.onclick = () => {
    window.focus();
    location.hash = `#/game/${gameId}`;
    n.close();
  };
}

/**
 * "Notify me when it's my turn": with Web Push (push.ts, the service worker sw.js) the turn is told
 * even with no page open. Without Web Push in this browser, notifications while a page is open only.
 */
function NotifyToggle({ me }: { me: StoredPlayer }) {
  const [on, setOn] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [permission, setPermission] = useState(
    typeof Notification === 'undefined' ? 'denied' : Notification.permission,
  );
  useEffect(() => {
    let live = true;
    void pushIsOn(me.id).then(
      (v) => live && setOn(v),
      () => live && setOn(false),
    );
    return () => {
      live = false;
    };
  }, [me.id]);
  if (!pushSupported()) {
    if (permission === 'denied') return null;
    if (permission === 'granted')
      return (
        <p className="muted">
          Notifications are on: an open page tells you when it is your turn, even in the background.
        </p>
      );
    return (
      <p>
        <button type="button" onClick={() => void Notification.requestPermission().then(setPermission)}>
          Notify me when it is my turn
        </button>
      </p>
    );
  }
  const toggle = async (wanted: boolean) => {
    setBusy(true);
    setError(null);
    try {
      await (wanted ? turnPushOn(me.id) : turnPushOff(me.id));
      setOn(wanted);
    } catch (err) {
      setError(
        err instanceof FairdiceError || err instanceof NotificationsNotAllowed
          ? sentence(err)
          : `This browser could not subscribe to push messages (${sentence(err)})`,
      );
      setOn(await pushIsOn(me.id).catch(() => false));
    } finally {
      setBusy(false);
      setPermission(Notification.permission);
    }
  };
  return (
    <div className="notify">
      <label>
        <input
          type="checkbox"
          checked={on === true}
          disabled={on === null || busy}
          onChange={(e) => void toggle(e.target.checked)}
        />{' '}
        Notify me when it’s my turn
      </label>{' '}
      <span className="muted" role="status">
        {on ? 'On in this browser, even with no page open.' : ''}
      </span>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}
