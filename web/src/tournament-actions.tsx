/** A tournament page's commands: registering and withdrawing (Entry), and the organizer's close / start / cancel. */
import { useState, type FormEvent } from 'react';
import { api, randomSeed, type StoredPlayer, type Tournament } from './api';

type Command = () => Promise<{ data?: Tournament; error?: unknown; response: Response }>;
/** Sends a tournament command; true when the service accepted it. */
export type Run = (command: Command) => Promise<boolean>;

export const ended = (t: Tournament) => t.status === 'finished' || t.status === 'cancelled';

export function Entry({ t, me, run, busy }: { t: Tournament; me: StoredPlayer; run: Run; busy: boolean }) {
  const mine = t.entrants.find((e) => e.playerId === me.id);
  const path = { params: { path: { id: t.id } } };
  return (
    <section aria-labelledby="entry-h">
      <h2 id="entry-h">Your entry</h2>
      {!mine ? (
        t.status === 'registering' ? (
          <>
            <p className="muted">Your seed is made in this browser and becomes part of every round seed.</p>
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() =>
                void run(() =>
                  api.POST('/v1/tournaments/{id}/entrants', { ...path, body: { clientSeed: randomSeed() } }),
                )
              }
            >
              Register
            </button>
          </>
        ) : (
          <p>You are not an entrant; registration is closed.</p>
        )
      ) : (
        <>
          <p>
            You are entrant {mine.number}
            {mine.status !== 'active' ? ` (${mine.status}${mine.reason ? `: ${mine.reason}` : ''})` : ''}. Your seed:{' '}
            <code className="hash">{mine.clientSeed}</code>
          </p>
          {mine.status === 'active' && !ended(t) && (
            <ReasonForm
              summary="Withdraw from this tournament"
              explain="You are seated in no later round; a game you are playing goes on. Your results so far stay."
              button="Withdraw"
              busy={busy}
              onConfirm={(reason) =>
                run(() =>
                  api.POST('/v1/tournaments/{id}/entrants/{playerId}/withdraw', {
                    params: { path: { id: t.id, playerId: me.id } },
                    body: { reason },
                  }),
                )
              }
            />
          )}
        </>
      )}
    </section>
  );
}

export function Organizer({ t, run, busy }: { t: Tournament; run: Run; busy: boolean }) {
  const path = { params: { path: { id: t.id } } };
  return (
    <section aria-labelledby="organizer-h">
      <h2 id="organizer-h">Organizer</h2>
      <div className="actions">
        {t.status === 'registering' && (
          <button
            type="button"
            disabled={busy}
            onClick={() => void run(() => api.POST('/v1/tournaments/{id}/close', { ...path, body: {} }))}
          >
            Close registration
          </button>
        )}
        {(t.status === 'registering' || t.status === 'closed') && (
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => void run(() => api.POST('/v1/tournaments/{id}/start', { ...path, body: {} }))}
          >
            Start the tournament
          </button>
        )}
      </div>
      <ReasonForm
        summary="Cancel this tournament"
        explain="The reason is recorded and the tournament seed revealed; games already running go on as ordinary games."
        button="Cancel the tournament"
        busy={busy}
        onConfirm={(reason) => run(() => api.POST('/v1/tournaments/{id}/cancel', { ...path, body: { reason } }))}
      />
    </section>
  );
}

/** A step that needs a confirmation and a recorded reason (withdraw, cancel). */
function ReasonForm(props: {
  summary: string;
  explain: string;
  button: string;
  busy: boolean;
  onConfirm: (reason: string) => Promise<boolean>;
}) {
  const [reason, setReason] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void props.onConfirm(reason.trim());
  };
  return (
    <details className="quit">
      <summary>{props.summary}</summary>
      <form onSubmit={submit}>
        <p>{props.explain}</p>
        <label>
          Reason <input value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={500} />
        </label>{' '}
        <button type="submit" disabled={props.busy || !reason.trim()}>
          {props.button}
        </button>
      </form>
    </details>
  );
}
