/**
 * Tournaments (#/tournaments): the public ones and mine, newest first, paged as the API pages them,
 * and a new tournament. Refusals are shown as sentences, as on every page.
 */
import { useEffect, useState, type ChangeEvent } from 'react';
import {
  api,
  notedCommitment,
  sentence,
  unwrap,
  type RuleSet,
  type RuleSetName,
  type StoredPlayer,
  type Tournament,
} from './api';
import { TIME_LIMITS } from './home';
import { RULE_SET_TITLES } from './util';

export const TOURNAMENT_STATUS: Record<string, string> = {
  registering: 'registration open',
  closed: 'registration closed',
  running: 'running',
  finished: 'finished',
  cancelled: 'cancelled',
};
export const FORMAT_TITLES: Record<string, string> = { duplicate: 'Duplicate', tables: 'Tables' };

/** A refusal as a person reads it: a sentence, never the code (as on every page). */
export interface Refusal {
  text: string;
}
export const refusalOf = (err: unknown): Refusal => ({ text: sentence(err) });

export function RefusalLine({ refusal }: { refusal: Refusal | null }) {
  if (!refusal) return null;
  return (
    <p role="alert" className="error">
      {refusal.text}
    </p>
  );
}

export function TournamentList({ me }: { me: StoredPlayer }) {
  const [items, setItems] = useState<Tournament[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const load = (cursor?: string) =>
    api
      .GET('/v1/tournaments', { params: { query: { limit: 20, ...(cursor ? { cursor } : {}) } } })
      .then(unwrap)
      .then((page) => {
        setItems((shown) => (cursor ? [...(shown ?? []), ...page.items] : page.items));
        setNext(page.nextCursor);
      })
      .catch((err: unknown) => setRefusal(refusalOf(err)));
  useEffect(() => {
    void load();
  }, []);
  return (
    <div className="tournaments">
      <h1>Tournaments</h1>
      <RefusalLine refusal={refusal} />
      <section aria-labelledby="tournaments-h">
        <h2 id="tournaments-h">Public tournaments and yours</h2>
        {items === null ? (
          <p>Loading…</p>
        ) : items.length === 0 ? (
          <p>No tournament yet: create one.</p>
        ) : (
          <ul className="list">
            {items.map((t) => (
              <li key={t.id}>
                <a href={`#/tournament/${t.id}`}>{t.name}</a>{' '}
                <span className="muted">
                  · {TOURNAMENT_STATUS[t.status]} · {RULE_SET_TITLES[t.ruleSet]} · {FORMAT_TITLES[t.format]} ·{' '}
                  {t.entrants.length} of {t.maxEntrants} entrants
                  {t.visibility === 'private' ? ' · private' : ''}
                  {t.organizerId === me.id ? ' · yours' : ''}
                </span>
              </li>
            ))}
          </ul>
        )}
        {next && (
          <button type="button" onClick={() => void load(next)}>
            More tournaments
          </button>
        )}
      </section>
      <NewTournament />
    </div>
  );
}

function NewTournament() {
  const [ruleSets, setRuleSets] = useState<RuleSet[]>([]);
  const [name, setName] = useState('');
  const [ruleSet, setRuleSet] = useState<RuleSetName>('penta');
  const [format, setFormat] = useState<'duplicate' | 'tables'>('duplicate');
  const [maxEntrants, setMaxEntrants] = useState(8);
  const [rounds, setRounds] = useState(1);
  const [gamesPerRound, setGamesPerRound] = useState(1);
  const [tableSizeMin, setTableSizeMin] = useState(2);
  const [tableSizeMax, setTableSizeMax] = useState(4);
  const [visibility, setVisibility] = useState<'public' | 'private'>('public');
  const [limit, setLimit] = useState(0);
  const [options, setOptions] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api
      .GET('/v1/rule-sets')
      .then(unwrap)
      .then(setRuleSets)
      .catch((err: unknown) => setRefusal(refusalOf(err)));
  }, []);
  const create = async () => {
    let overrides: Record<string, unknown> | undefined;
    if (options.trim()) {
      try {
        overrides = JSON.parse(options) as Record<string, unknown>;
      } catch {
        setRefusal({ text: 'The rule options are not JSON, e.g. {"target": 2000}.' });
        return;
      }
    }
    const t = unwrap(
      await api.POST('/v1/tournaments', {
        body: {
          name: name.trim(),
          ruleSet,
          format,
          visibility,
          maxEntrants,
          rounds,
          gamesPerRound,
          ...(format === 'tables' ? { tableSizeMin, tableSizeMax } : {}),
          ...(overrides ? { options: overrides } : {}),
          ...(TIME_LIMITS[limit][1] ? { turnTimeLimitSeconds: TIME_LIMITS[limit][1] } : {}),
        },
      }),
    );
    // The commitment as first seen here: the audit at the end is checked against it.
    notedCommitment(t.id, t.commitment);
    location.hash = `#/tournament/${t.id}`;
  };
  const number = (set: (n: number) => void) => (e: ChangeEvent<HTMLInputElement>) => set(Number(e.target.value));
  return (
    <section aria-labelledby="new-tournament-h">
      <h2 id="new-tournament-h">New tournament</h2>
      <form
        className="new-game"
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          setRefusal(null);
          create()
            .catch((err: unknown) => setRefusal(refusalOf(err)))
            .finally(() => setBusy(false));
        }}
      >
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
        </label>
        <label>
          Rule set
          <select value={ruleSet} onChange={(e) => setRuleSet(e.target.value as RuleSetName)}>
            {(ruleSets.length ? ruleSets.map((r) => r.name) : (['penta', 'simple', 'bonus', 'farkle'] as const)).map(
              (n) => (
                <option key={n} value={n}>
                  {RULE_SET_TITLES[n]}
                </option>
              ),
            )}
          </select>
        </label>
        <label>
          Format
          <select value={format} onChange={(e) => setFormat(e.target.value as 'duplicate' | 'tables')}>
            <option value="duplicate">Duplicate: everyone plays the same dice alone (five dice only)</option>
            <option value="tables">Tables: entrants drawn into tables each round</option>
          </select>
        </label>
        <label>
          Maximum entrants
          <input type="number" min={2} max={1024} value={maxEntrants} onChange={number(setMaxEntrants)} />
        </label>
        <label>
          Rounds
          <input type="number" min={1} max={50} value={rounds} onChange={number(setRounds)} />
        </label>
        <label>
          Games per round
          <input type="number" min={1} max={10} value={gamesPerRound} onChange={number(setGamesPerRound)} />
        </label>
        {format === 'tables' && (
          <>
            <label>
              Fewest players at a table
              <input type="number" min={2} max={8} value={tableSizeMin} onChange={number(setTableSizeMin)} />
            </label>
            <label>
              Most players at a table
              <input type="number" min={2} max={8} value={tableSizeMax} onChange={number(setTableSizeMax)} />
            </label>
          </>
        )}
        <label>
          Visibility
          <select value={visibility} onChange={(e) => setVisibility(e.target.value as 'public' | 'private')}>
            <option value="public">Public: listed here</option>
            <option value="private">Private: organizer and entrants, by link</option>
          </select>
        </label>
        <label>
          Time per move
          <select value={limit} onChange={(e) => setLimit(Number(e.target.value))}>
            {TIME_LIMITS.map(([label], i) => (
              <option key={label} value={i}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Rule options (JSON, optional)
          <input value={options} onChange={(e) => setOptions(e.target.value)} placeholder='{"target": 2000}' />
        </label>
        <button type="submit" disabled={busy}>
          Create tournament
        </button>
      </form>
      <RefusalLine refusal={refusal} />
    </section>
  );
}
