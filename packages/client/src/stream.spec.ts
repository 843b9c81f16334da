import { FairdiceError } from './errors';
import { gameEventStream, tournamentStandingsStream } from './stream';
import type { GameEvent, TournamentStandings } from './types';

const event = (version: number, type = 'rolled') =>
  ({ gameId: 'g1', version, type, seat: 0, data: { type } }) as unknown as GameEvent;

const message = (e: GameEvent) => `id: ${e.version}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;

/** A body that sends `chunks` and then ends (a dropped connection unless the game ended). */
function sse(chunks: string[], init: ResponseInit = {}) {
  const encoder = new TextEncoder();
  return new Response(
    new ReadableStream({
      start(controller) {
        for (const c of chunks) controller.enqueue(encoder.encode(c));
        controller.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream' }, ...init },
  );
}

function server(responses: Response[]) {
  const requests: Request[] = [];
  return {
    requests,
    fetch: (request: Request) => {
      requests.push(request);
      const next = responses.shift();
      return next ? Promise.resolve(next) : Promise.reject(new Error('no more responses'));
    },
  };
}

async function collect(iterable: AsyncIterable<GameEvent>) {
  const seen: number[] = [];
  for await (const e of iterable) seen.push(e.version);
  return seen;
}

describe('gameEventStream (SSE)', () => {
  it('reads named events split across chunks, resumes with Last-Event-ID after a drop, skips repeats, ends at gameFinished', async () => {
    const first = message(event(1)) + message(event(2));
    const s = server([
      // chunk boundaries inside a message, a heartbeat comment
      sse([first.slice(0, 10), first.slice(10, 70), first.slice(70), ': keep-alive\n\n']),
      // the server resends 2 (must not be yielded twice), then 3 and the end
      sse([message(event(2)), message(event(3)), message(event(4, 'gameFinished')), message(event(5))]),
    ]);
    const seen = await collect(
      gameEventStream({ baseUrl: 'http://f.test/', gameId: 'g1', token: 'fd_t', reconnectDelayMs: 0, fetch: s.fetch }),
    );
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(s.requests).toHaveLength(2);
    expect(new URL(s.requests[0].url).pathname).toBe('/v1/games/g1/stream');
    expect(s.requests[0].headers.get('authorization')).toBe('Bearer fd_t');
    expect(s.requests[0].headers.get('accept')).toBe('text/event-stream');
    expect(s.requests[0].headers.get('last-event-id')).toBeNull();
    expect(s.requests[1].headers.get('last-event-id')).toBe('2');
  });

  it('starts after `after`', async () => {
    const s = server([sse([message(event(8, 'gameAbandoned'))])]);
    expect(
      await collect(gameEventStream({ baseUrl: 'http://f.test', gameId: 'g1', after: 7, fetch: s.fetch })),
    ).toEqual([8]);
    expect(s.requests[0].headers.get('last-event-id')).toBe('7');
  });

  it('access-revoked ends the stream with GAME_ACCESS_REVOKED and no reconnection', async () => {
    const revoked = `event: access-revoked\ndata: ${JSON.stringify({ code: 'GAME_ACCESS_REVOKED', status: 403, gameId: 'g1' })}\n\n`;
    const s = server([sse([message(event(1)), revoked])]);
    const seen: number[] = [];
    const run = (async () => {
      for await (const e of gameEventStream({ baseUrl: 'http://f.test', gameId: 'g1', fetch: s.fetch }))
        seen.push(e.version);
    })();
    await expect(run).rejects.toMatchObject({ code: 'GAME_ACCESS_REVOKED', status: 403 });
    expect(seen).toEqual([1]);
    expect(s.requests).toHaveLength(1);
  });

  it('revoked (the token was rotated, revoked or expired) ends the stream with UNAUTHENTICATED and no reconnection', async () => {
    const revoked = `event: revoked\ndata: ${JSON.stringify({ type: 'revoked', code: 'UNAUTHENTICATED', status: 401 })}\n\n`;
    const s = server([sse([message(event(1)), revoked])]);
    const seen: number[] = [];
    const run = (async () => {
      for await (const e of gameEventStream({ baseUrl: 'http://f.test', gameId: 'g1', fetch: s.fetch }))
        seen.push(e.version);
    })();
    await expect(run).rejects.toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    expect(seen).toEqual([1]);
    expect(s.requests).toHaveLength(1);
  });

  it('a refused stream (404 GAME_NOT_FOUND) throws the problem at once', async () => {
    const notFound = new Response(JSON.stringify({ code: 'GAME_NOT_FOUND', status: 404, detail: 'no such game' }), {
      status: 404,
      headers: { 'content-type': 'application/problem+json' },
    });
    const s = server([notFound]);
    const run = collect(gameEventStream({ baseUrl: 'http://f.test', gameId: 'nope', fetch: s.fetch }));
    await expect(run).rejects.toBeInstanceOf(FairdiceError);
    await expect(run).rejects.toMatchObject({ code: 'GAME_NOT_FOUND' });
    expect(s.requests).toHaveLength(1);
  });

  it('retries 503 and gives up after maxReconnects connections that carried nothing', async () => {
    const unavailable = () =>
      new Response(JSON.stringify({ code: 'NOT_READY', status: 503 }), {
        status: 503,
        headers: { 'retry-after': '0' },
      });
    const s = server([unavailable(), sse([message(event(1, 'gameFinished'))])]);
    expect(await collect(gameEventStream({ baseUrl: 'http://f.test', gameId: 'g1', fetch: s.fetch }))).toEqual([1]);

    const empty = server([sse([]), sse([]), sse([])]);
    await expect(
      collect(
        gameEventStream({
          baseUrl: 'http://f.test',
          gameId: 'g1',
          fetch: empty.fetch,
          reconnectDelayMs: 0,
          maxReconnects: 2,
        }),
      ),
    ).rejects.toThrow('closed 3 times without an event');
    expect(empty.requests).toHaveLength(3);
  });
});

describe('tournamentStandingsStream (SSE)', () => {
  const standings = (version: number, status = 'running', totalScore = 0) =>
    ({
      tournamentId: 't1',
      version,
      status,
      live: false,
      rows: [{ rank: 1, entrant: 1, playerId: 'p1', displayName: 'Ada', status: 'active', totalScore }],
    }) as unknown as TournamentStandings;
  const standingsMessage = (s: TournamentStandings) =>
    `id: ${s.version}\nevent: standings\ndata: ${JSON.stringify(s)}\n\n`;

  async function collectStandings(iterable: AsyncIterable<TournamentStandings>) {
    const seen: Array<[number, string, number]> = [];
    for await (const s of iterable) seen.push([s.version, s.status, s.rows[0].totalScore]);
    return seen;
  }

  it('yields every standings message (the same version again when live totals change), reopens a dropped connection without Last-Event-ID, ends at finished', async () => {
    const first = standingsMessage(standings(5)) + ': keep-alive\n\n' + standingsMessage(standings(5, 'running', 12));
    const s = server([
      sse([first.slice(0, 25), first.slice(25)]),
      // a reconnection starts with the standings of that moment; other named events are passed over
      sse([
        standingsMessage(standings(6)),
        'event: other\ndata: {}\n\n',
        standingsMessage(standings(7, 'finished', 30)),
        standingsMessage(standings(8)),
      ]),
    ]);
    const seen = await collectStandings(
      tournamentStandingsStream({
        baseUrl: 'http://f.test/',
        tournamentId: 't1',
        token: 'fd_t',
        reconnectDelayMs: 0,
        fetch: s.fetch,
      }),
    );
    expect(seen).toEqual([
      [5, 'running', 0],
      [5, 'running', 12],
      [6, 'running', 0],
      [7, 'finished', 30],
    ]);
    expect(s.requests).toHaveLength(2);
    expect(new URL(s.requests[0].url).pathname).toBe('/v1/tournaments/t1/standings/stream');
    expect(s.requests[0].headers.get('authorization')).toBe('Bearer fd_t');
    expect(s.requests[0].headers.get('accept')).toBe('text/event-stream');
    expect(s.requests[1].headers.get('last-event-id')).toBeNull();
  });

  it('ends at cancelled standings', async () => {
    const s = server([sse([standingsMessage(standings(3, 'cancelled'))])]);
    expect(
      await collectStandings(
        tournamentStandingsStream({ baseUrl: 'http://f.test', tournamentId: 't1', fetch: s.fetch }),
      ),
    ).toEqual([[3, 'cancelled', 0]]);
  });

  it('a refused stream (404 TOURNAMENT_NOT_FOUND) throws the problem at once', async () => {
    const notFound = new Response(
      JSON.stringify({ code: 'TOURNAMENT_NOT_FOUND', status: 404, detail: 'no such tournament' }),
      {
        status: 404,
        headers: { 'content-type': 'application/problem+json' },
      },
    );
    const s = server([notFound]);
    const run = collectStandings(
      tournamentStandingsStream({ baseUrl: 'http://f.test', tournamentId: 'nope', fetch: s.fetch }),
    );
    await expect(run).rejects.toMatchObject({ code: 'TOURNAMENT_NOT_FOUND', status: 404 });
    expect(s.requests).toHaveLength(1);
  });

  it('gives up after maxReconnects connections that carried no standings', async () => {
    const empty = server([sse([': keep-alive\n\n']), sse([]), sse([])]);
    await expect(
      collectStandings(
        tournamentStandingsStream({
          baseUrl: 'http://f.test',
          tournamentId: 't1',
          fetch: empty.fetch,
          reconnectDelayMs: 0,
          maxReconnects: 2,
        }),
      ),
    ).rejects.toThrow('the stream of the standings of tournament t1 closed 3 times without an event');
    expect(empty.requests).toHaveLength(3);
  });
});
