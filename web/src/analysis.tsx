/**
 * The post-game analysis of a finished five-dice game or two-player Farkle game (#/analysis/<id>):
 * the service's GET /v1/games/{id}/analysis, every seat's accuracy and loss, and every decision (a
 * hold after a roll, a box, or a Farkle set-aside with its bank or roll) against the best move, with
 * its label. Five dice is judged by expected points, two-player Farkle by the chance to win. A table
 * still being computed (503 TABLE_BUILDING) is a sentence, and the page asks again by itself after the
 * wait the service gives. Other Farkle games have no analysis, and an unfinished game none yet: both
 * are said, not asked.
 */
import { useEffect, useState } from 'react';
import {
  adviceApi,
  api,
  sentence,
  tableRetrySeconds,
  unwrap,
  type Decision,
  type GameAnalysis,
  type GameView,
} from './api';
import { RULE_SET_TITLES, boxName, seatName } from './util';

/** The labels from best to worst (docs/advice.md: by loss in expected points). */
const LABELS: Decision['label'][] = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];
const LABEL_WORDS: Record<Decision['label'], string> = {
  best: 'Best',
  good: 'Good',
  inaccuracy: 'Inaccuracy',
  mistake: 'Mistake',
  blunder: 'Blunder',
};
/** Moves the service made for a seat (the event's reason), said in words. */
const REASON_WORDS: Record<string, string> = {
  timeout: 'made by the service: the time ran out',
  autoScore: 'made by the service: auto-score',
  computer: 'made by the computer',
};

const FILTERS = {
  all: { text: 'Every decision', worst: 'best' },
  inaccuracies: { text: 'Inaccuracies and worse', worst: 'inaccuracy' },
  mistakes: { text: 'Mistakes and blunders', worst: 'mistake' },
} as const;
type Filter = keyof typeof FILTERS;

const loss = (x: number) => x.toFixed(2);
/** A loss in chance to win, in percentage points. */
const winLoss = (x: number) => `${(100 * x).toFixed(2)} pts`;
const lossOf = (d: Decision) =>
  d.kind === 'setAside' && d.winChanceLoss !== null ? winLoss(d.winChanceLoss) : loss(d.loss);
const percent = (x: number) => `${x.toFixed(1)} %`;

const faces = (dice: number[]) => dice.join(', ');
function holdWords(kept: number[], verb: 'Kept' | 'Keep'): string {
  if (kept.length === 5) return verb === 'Kept' ? 'Kept all five and scored' : 'Keep all five and score';
  if (kept.length === 0) return verb === 'Kept' ? 'Rolled all five again' : 'Roll all five again';
  return `${verb} ${faces(kept)}`;
}
/** A Farkle set-aside and what followed: played (past: banked, rolled on) or best (bank, roll on). */
const setAsideWords = (kept: number[], then: string | null, tense: 'past' | 'advice') =>
  `Set aside ${faces(kept)}, then ${then === 'bank' ? (tense === 'past' ? 'banked' : 'bank') : tense === 'past' ? 'rolled on' : 'roll on'}`;
const played = (d: Decision) =>
  d.kind === 'hold'
    ? holdWords(d.kept ?? [], 'Kept')
    : d.kind === 'setAside'
      ? setAsideWords(d.kept ?? [], d.then, 'past')
      : `Scored ${boxName(d.box ?? '')}`;
const best = (d: Decision) =>
  d.kind === 'hold'
    ? holdWords(d.bestKept ?? [], 'Keep')
    : d.kind === 'setAside'
      ? setAsideWords(d.bestKept ?? [], d.bestThen, 'advice')
      : `Score ${boxName(d.bestBox ?? '')}`;
const decisionWords = (d: Decision) =>
  d.kind === 'hold'
    ? `Hold (${d.rollsLeft} ${d.rollsLeft === 1 ? 'roll' : 'rolls'} left)`
    : d.kind === 'setAside'
      ? `Set aside (${d.turnPoints ?? 0} in the turn)`
      : 'Box';

/**
 * Analysis is for finished five-dice games and two-player Farkle games: otherwise, why not (a
 * sentence), without asking the service.
 */
export function noAnalysis(
  game: Pick<GameView, 'family' | 'status'> & ({ seats: unknown[] } | { seatCount: number }),
): string | null {
  const seats = 'seats' in game ? game.seats.length : game.seatCount;
  if (game.family !== 'five-dice' && seats !== 2)
    return 'Post-game analysis covers five-dice games and two-player Farkle games; this Farkle game has none.';
  if (game.status !== 'finished') return 'The analysis is there once the game is finished.';
  return null;
}

export function AnalysisPage({ gameId }: { gameId: string }) {
  const [game, setGame] = useState<GameView | null>(null);
  const [analysis, setAnalysis] = useState<GameAnalysis | null>(null);
  const [waiting, setWaiting] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState<Filter>('all');
  const [seat, setSeat] = useState<number | null>(null);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      try {
        const a = unwrap(await adviceApi.GET('/v1/games/{id}/analysis', { params: { path: { id: gameId } } }));
        if (stopped) return;
        setWaiting(null);
        setAnalysis(a);
      } catch (err) {
        if (stopped) return;
        const wait = tableRetrySeconds(err);
        if (wait === null) {
          setWaiting(null);
          setError(sentence(err));
          return;
        }
        setWaiting(`The analysis is being prepared, try again in ${wait} s. (This page asks again by itself.)`);
        timer = setTimeout(() => void ask(), wait * 1000);
      }
    };
    api
      .GET('/v1/games/{id}', { params: { path: { id: gameId } } })
      .then(unwrap)
      .then((g) => {
        if (stopped) return;
        setGame(g);
        if (noAnalysis(g) === null) void ask();
      })
      .catch((err: unknown) => {
        if (!stopped) setError(sentence(err));
      });
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [gameId]);

  const why = game && noAnalysis(game);
  const worst = LABELS.indexOf(FILTERS[filter].worst);
  const numbered = (analysis?.decisions ?? []).map((d, i) => ({ d, n: i + 1 }));
  const shown = numbered.filter(({ d }) => LABELS.indexOf(d.label) >= worst && (seat === null || d.seat === seat));
  return (
    <div className="analysis">
      <h1>Analysis{game && <span className="muted"> · {RULE_SET_TITLES[game.ruleSet]}</span>}</h1>
      <p>
        <a href={`#/game/${gameId}`}>Back to the game</a> · <a href={`#/replay/${gameId}`}>Replay</a>
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {why && <p role="status">{why}</p>}
      {waiting && <p role="status">{waiting}</p>}
      {!game && !error && <p>Loading the game…</p>}
      {game && !why && !analysis && !waiting && !error && <p>Loading the analysis…</p>}
      {game && analysis && (
        <>
          {game.family === 'five-dice' ? (
            <p>
              Every decision is compared with optimal play: its loss is the expected final score it gave up, in points.
              Optimal play from an empty sheet expects {analysis.optimalExpectedScore.toFixed(1)} points; accuracy is
              the share of that a player’s decisions kept. A loss of 0 is <em>best</em>, under 0.5 <em>good</em>, under
              2 an <em>inaccuracy</em>, under 6 a <em>mistake</em>, 6 or more a <em>blunder</em>.
            </p>
          ) : (
            <p>
              Every decision is compared with the play that gives the best chance to win (a tie counts half): its loss
              is the chance to win it gave up, in percentage points (pts). The first player wins{' '}
              {percent(100 * analysis.optimalExpectedScore)} of games when both play that way; accuracy is 100 % less
              the player’s total loss. A loss of 0 is <em>best</em>, under 1 <em>good</em>, under 3 an{' '}
              <em>inaccuracy</em>, under 8 a <em>mistake</em>, 8 or more a <em>blunder</em>.
            </p>
          )}
          <div className="table-scroll" role="region" aria-labelledby="players-caption" tabIndex={0}>
            <table className="stats analysis-table">
              <caption id="players-caption">Accuracy per player</caption>
              <thead>
                <tr>
                  <th scope="col">Player</th>
                  <th scope="col">Accuracy</th>
                  <th scope="col">Expected loss</th>
                  <th scope="col">Decisions</th>
                  <th scope="col">Best</th>
                  <th scope="col">Inaccuracies</th>
                  <th scope="col">Mistakes</th>
                  <th scope="col">Blunders</th>
                  <th scope="col">Score</th>
                </tr>
              </thead>
              <tbody>
                {analysis.seats.map((s) => (
                  <tr key={s.seat}>
                    <th scope="row">{seatName(game, s.seat)}</th>
                    <td>{percent(s.accuracy)}</td>
                    <td>{game.family === 'five-dice' ? loss(s.totalLoss) : winLoss(s.totalLoss)}</td>
                    <td>{s.decisions}</td>
                    <td>{s.optimal}</td>
                    <td>{s.inaccuracies}</td>
                    <td>{s.mistakes}</td>
                    <td>{s.blunders}</td>
                    <td>{s.score ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="actions filters">
            <label htmlFor="analysis-show">Show</label>
            <select id="analysis-show" value={filter} onChange={(e) => setFilter(e.target.value as Filter)}>
              {(Object.keys(FILTERS) as Filter[]).map((f) => (
                <option key={f} value={f}>
                  {FILTERS[f].text}
                </option>
              ))}
            </select>
            {analysis.seats.length > 1 && (
              <>
                <label htmlFor="analysis-seat">Player</label>
                <select
                  id="analysis-seat"
                  value={seat === null ? '' : String(seat)}
                  onChange={(e) => setSeat(e.target.value === '' ? null : Number(e.target.value))}
                >
                  <option value="">Everyone</option>
                  {analysis.seats.map((s) => (
                    <option key={s.seat} value={s.seat}>
                      {seatName(game, s.seat)}
                    </option>
                  ))}
                </select>
              </>
            )}
          </div>
          <div className="table-scroll" role="region" aria-labelledby="decisions-caption" tabIndex={0}>
            <table className="stats analysis-table decisions">
              <caption id="decisions-caption">
                Decisions: {shown.length} of {numbered.length} shown
              </caption>
              <thead>
                {/* The verdict and loss come early: at 360 px they are visible before any scrolling. */}
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Player</th>
                  <th scope="col">Turn</th>
                  <th scope="col">Verdict</th>
                  <th scope="col">Loss</th>
                  <th scope="col">Decision</th>
                  <th scope="col">Dice</th>
                  <th scope="col">Played</th>
                  <th scope="col">Best move</th>
                  <th scope="col">Position</th>
                </tr>
              </thead>
              <tbody>
                {shown.length === 0 && (
                  <tr>
                    <td colSpan={10}>No decision matches.</td>
                  </tr>
                )}
                {shown.map(({ d, n }) => (
                  <tr key={n} className={`decision ${d.label}`}>
                    <th scope="row">{n}</th>
                    <td>{seatName(game, d.seat)}</td>
                    <td>{d.turn}</td>
                    <td className="move-label">{LABEL_WORDS[d.label]}</td>
                    <td>{lossOf(d)}</td>
                    <td>{decisionWords(d)}</td>
                    <td>{d.dice.join(' ')}</td>
                    <td>
                      {played(d)}
                      {d.reason && (
                        <span className="by-service">
                          {' '}
                          ({REASON_WORDS[d.reason] ?? `made by the service: ${d.reason}`})
                        </span>
                      )}
                    </td>
                    <td>{best(d)}</td>
                    <td>
                      {/* The state before the decision: the dice as the player saw them. */}
                      <a href={`#/replay/${gameId}/${d.version - 1}`} aria-label={`Replay decision ${n}`}>
                        Replay
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}
