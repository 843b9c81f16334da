/** One game: seats and start while open, the board while playing, standings and the audit once over. */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  api,
  followGame,
  notedCommitment,
  playMove,
  randomSeed,
  sentence,
  unwrap,
  type GameEvent,
  type GameView,
  type StoredPlayer,
  type TournamentRef,
} from './api';
import { noAnalysis } from './analysis';
import { describeEvent } from './describe';
import { FarkleBoard } from './farkle';
import { FiveDiceBoard } from './five-dice';
import { SecureAccountPrompt } from './secure-account';
import { useChipRatings } from './rating';
import { Trust } from './trust';
import { RULE_SET_TITLES, ordinal, seatName, type Act } from './util';

export function GamePage({ gameId, me }: { gameId: string; me: StoredPlayer }) {
  const [game, setGame] = useState<GameView | null>(null);
  const ratings = useChipRatings(game);
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState(true);
  const [feed, setFeed] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const version = useRef(0);
  const shown = useRef(false);
  const accept = useCallback((g: GameView) => {
    // An older answer arriving late, or the version already shown (a stream event after my own command).
    if (g.version < version.current || (g.version === version.current && shown.current)) return;
    shown.current = true;
    version.current = g.version;
    notedCommitment(g.id, g.commitment);
    setGame(g);
  }, []);
  const refresh = useCallback(async () => {
    try {
      accept(unwrap(await api.GET('/v1/games/{id}', { params: { path: { id: gameId } } })));
    } catch (err) {
      setError(sentence(err));
    }
  }, [accept, gameId]);

  // Load, then follow the stream: every event is told in the feed and the state is re-read.
  useEffect(() => {
    const controller = new AbortController();
    void (async () => {
      try {
        const g = unwrap(await api.GET('/v1/games/{id}', { params: { path: { id: gameId } } }));
        accept(g);
        const recent = unwrap(
          await api.GET('/v1/games/{id}/events', {
            params: { path: { id: gameId }, query: { after: Math.max(0, g.version - 6), limit: 6 } },
          }),
        );
        setFeed(recent.items.map((e) => describeEvent(g, e as GameEvent)).reverse());
        await followGame(
          gameId,
          () => version.current,
          (event) => {
            setGame((current) => {
              if (current) setFeed((f) => [describeEvent(current, event), ...f].slice(0, 8));
              return current;
            });
            if (event.version > version.current) void refresh();
          },
          setLive,
          controller.signal,
        );
      } catch (err) {
        if (!controller.signal.aborted) setError(sentence(err));
      }
    })();
    return () => controller.abort();
  }, [accept, gameId, refresh]);

  const act: Act = useCallback(
    async (command) => {
      setBusy(true);
      setError(null);
      try {
        accept(unwrap(await command()));
        return true;
      } catch (err) {
        setError(sentence(err));
        void refresh();
        return false;
      } finally {
        setBusy(false);
      }
    },
    [accept, refresh],
  );

  const mySeats = game ? game.seats.filter((s) => s.playerId === me.id).map((s) => s.seat) : [];
  const myTurn = !!game && game.status === 'playing' && game.currentSeat !== null && mySeats.includes(game.currentSeat);
  useTurnSignal(game, myTurn);

  if (!game)
    return error ? (
      <p role="alert" className="error">
        {error}
      </p>
    ) : (
      <p>Loading the game…</p>
    );
  const hotSeat = mySeats.length > 1;
  return (
    <div className="game">
      <div className="game-head">
        <h1>
          {RULE_SET_TITLES[game.ruleSet]} <span className="muted">· {statusText(game)}</span>
        </h1>
        <span role="status" className={live ? 'live' : 'live off'}>
          {game.status === 'finished' || game.status === 'abandoned' ? '' : live ? 'Live' : 'Reconnecting…'}
        </span>
      </div>
      <TournamentOf gameId={game.id} />
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {game.status === 'playing' && (
        <p className={myTurn ? 'turn mine' : 'turn'} aria-live="polite">
          {myTurn
            ? hotSeat
              ? `${seatName(game, game.currentSeat!)}'s turn: pass the device to ${seatName(game, game.currentSeat!)}.`
              : 'Your turn.'
            : `Waiting for ${seatName(game, game.currentSeat!)}.`}
          {game.turnTimeLimitSeconds ? ` Time per turn: ${game.turnTimeLimitSeconds} s.` : ''}
        </p>
      )}
      {game.status === 'open' && <OpenGame game={game} me={me} mySeats={mySeats} act={act} busy={busy} />}
      {/* A game cancelled or expired before its start has no play state to show. */}
      {game.status === 'abandoned' && !game.fiveDice && !game.farkle && (
        <p role="status">This game ended before it started: nobody rolled.</p>
      )}
      {game.status !== 'open' && game.fiveDice && (
        <FiveDiceBoard game={game} myTurn={myTurn} act={act} busy={busy} ratings={ratings} />
      )}
      {game.status !== 'open' && game.farkle && (
        <FarkleBoard game={game} myTurn={myTurn} act={act} busy={busy} ratings={ratings} />
      )}
      {game.standings && <Standings game={game} me={me} />}
      <SecureAccountPrompt finished={game.status === 'finished' && mySeats.length > 0} />
      {noAnalysis(game) === null && (
        <p>
          <a href={`#/analysis/${game.id}`}>Analysis of this game</a>: every decision against optimal play.
        </p>
      )}
      {game.status === 'playing' && mySeats.length > 0 && myTurn && (
        <details className="quit">
          <summary>Leave this game</summary>
          <p>Quitting ends your part: your score is final and ranks last.</p>
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              void act(() =>
                playMove(game.id, 'quit', {}, (init) =>
                  api.POST('/v1/games/{id}/quit', { params: { path: { id: game.id } }, body: {}, ...init }),
                ),
              )
            }
          >
            Quit the game
          </button>
        </details>
      )}
      <section aria-labelledby="feed-h" className="feed">
        <h2 id="feed-h">What happened</h2>
        <ol aria-live="polite">
          {feed.map((line, i) => (
            <li key={`${feed.length - i}`}>{line}</li>
          ))}
        </ol>
      </section>
      <Trust game={game} />
    </div>
  );
}

function statusText(game: GameView): string {
  switch (game.status) {
    case 'open':
      return 'waiting for players';
    case 'playing':
      return 'in play';
    case 'finished':
      return 'finished';
    case 'abandoned':
      return 'abandoned';
  }
}

/** The tab's title says when it is my turn, and a notification too if the page is hidden. */
function useTurnSignal(game: GameView | null, myTurn: boolean) {
  const was = useRef(false);
  useEffect(() => {
    document.title = myTurn
      ? '● Your turn · fairdice'
      : game
        ? `${RULE_SET_TITLES[game.ruleSet]} · fairdice`
        : 'fairdice';
    if (myTurn && !was.current && document.hidden && 'Notification' in window && Notification.permission === 'granted')
      new Notification('fairdice: your turn', {
        body: game ? RULE_SET_TITLES[game.ruleSet] : undefined,
        tag: game?.id,
      });
    was.current = myTurn;
    return () => {
      document.title = 'fairdice';
    };
  }, [game, myTurn]);
}

function OpenGame(props: { game: GameView; me: StoredPlayer; mySeats: number[]; act: Act; busy: boolean }) {
  const { game, me, mySeats, act, busy } = props;
  const link = `${location.origin}/#/game/${game.id}`;
  const filled = game.seats.every((s) => s.playerId || s.computer);
  const id = game.id;
  const isCreator = game.creatorId === me.id;
  return (
    <section aria-labelledby="seats-h" className="open-game">
      <h2 id="seats-h">Seats</h2>
      <ul className="list">
        {game.seats.map((s) => (
          <li key={s.seat}>
            Seat {s.seat + 1}: {s.playerId ? seatName(game, s.seat) : 'open'}
            {s.hotSeat ? ' (hot seat, on the creator’s screen)' : ''}
            {s.playerId === me.id ? ' · you' : ''}
          </li>
        ))}
      </ul>
      <p>
        Invite others with this link:{' '}
        <a href={link} className="join-link">
          {link}
        </a>
      </p>
      {game.turnTimeLimitSeconds ? <p>Time per turn: {game.turnTimeLimitSeconds} seconds.</p> : null}
      <div className="actions">
        {mySeats.length === 0 && (
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              void act(() =>
                api.POST('/v1/games/{id}/join', { params: { path: { id } }, body: { clientSeed: randomSeed() } }),
              )
            }
          >
            Join this game
          </button>
        )}
        {isCreator && (
          <button
            type="button"
            disabled={busy || !filled}
            onClick={() =>
              void act(() =>
                api.POST('/v1/games/{id}/start', {
                  params: { path: { id } },
                  // Seeds of my own for the hot seats I hold that have none yet (mine was set at creation).
                  body: {
                    seeds: game.seats
                      .filter((s) => s.playerId === me.id && !s.clientSeed)
                      .map((s) => ({ seat: s.seat, clientSeed: randomSeed() })),
                  },
                }),
              )
            }
          >
            {filled ? 'Start the game' : 'Start (waiting for every seat)'}
          </button>
        )}
        {mySeats.length > 0 && !isCreator && (
          <button
            type="button"
            disabled={busy}
            onClick={() => void act(() => api.POST('/v1/games/{id}/leave', { params: { path: { id } }, body: {} }))}
          >
            Leave
          </button>
        )}
        {isCreator && (
          <button
            type="button"
            disabled={busy}
            onClick={() => void act(() => api.POST('/v1/games/{id}/cancel', { params: { path: { id } }, body: {} }))}
          >
            Cancel the game
          </button>
        )}
      </div>
    </section>
  );
}

function Standings({ game, me }: { game: GameView; me: StoredPlayer }) {
  const standings = game.standings ?? [];
  const tiedRanks = new Set(
    standings.filter((s) => standings.filter((o) => o.rank === s.rank).length > 1).map((s) => s.rank),
  );
  const winners = standings.filter((s) => s.rank === 1);
  const headline =
    standings.length === 1
      ? `Final score: ${standings[0].total}.`
      : winners.length > 1
        ? `A tie: ${winners.map((w) => w.displayName ?? `Seat ${w.seat + 1}`).join(' and ')} share first place with ${winners[0].total}.`
        : `${winners[0]?.playerId === me.id && !game.seats.some((s) => s.hotSeat) ? 'You win' : `${winners[0]?.displayName ?? 'Seat'} wins`} with ${winners[0]?.total}.`;
  return (
    <section aria-labelledby="standings-h" className="standings">
      <h2 id="standings-h">Result</h2>
      <p className="headline" role="status">
        {headline}
      </p>
      <ol>
        {standings.map((s) => (
          <li key={s.seat}>
            {tiedRanks.has(s.rank) ? `Tied ${ordinal(s.rank)}` : ordinal(s.rank)}:{' '}
            {s.playerId && s.playerId !== me.id && !game.seats[s.seat]?.hotSeat ? (
              <a href={`#/players/${s.playerId}`} title="Their page: ratings, and a challenge">
                {s.displayName ?? `Seat ${s.seat + 1}`}
              </a>
            ) : (
              (s.displayName ?? `Seat ${s.seat + 1}`)
            )}{' '}
            · <span className="total">{s.total}</span>
            {s.quit ? ' (quit)' : ''}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** A tournament's game links back to it: the game's first event (gameCreated) names the tournament. */
function TournamentOf({ gameId }: { gameId: string }) {
  const [ref, setRef] = useState<TournamentRef | null>(null);
  useEffect(() => {
    api
      .GET('/v1/games/{id}/events', { params: { path: { id: gameId }, query: { after: 0, limit: 1 } } })
      .then(unwrap)
      .then((page) => {
        const created = page.items[0];
        if (created?.type === 'gameCreated')
          setRef((created.data as { tournament?: TournamentRef | null }).tournament ?? null);
      })
      .catch(() => undefined); // the game itself says what went wrong
  }, [gameId]);
  if (!ref) return null;
  return (
    <p>
      <a href={`#/tournament/${ref.id}`}>Back to the tournament</a>{' '}
      <span className="muted">
        · round {ref.round}, game {ref.game + 1}
        {ref.format === 'tables' ? `, table ${ref.table + 1}` : ''}
      </span>
    </p>
  );
}
