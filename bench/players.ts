/**
 * The virtual players of the load scenarios. Each plays its OWN solo five-dice 'simple' games
 * to the end: create (1 seat) → start → 13 × (roll once, score the next open box in sheet
 * order) → the game is finished → next game. One step = one request, so a game is 28 requests
 * (create, start, 13 rolls, 13 scores); every one of them is a command appending events.
 *
 * The client keeps the box order itself (BOX_IDS) and parses only what it needs (the new game's
 * id, and the last score's status), to keep the client's CPU share small: the client shares the
 * machine's 2 CPUs with the server and PostgreSQL.
 */
import { BOX_IDS } from '@fairdice/core/rules/five-dice/types';
import type { HttpClient, VirtualClient } from './load';

export const RULE_SET = 'simple';

export interface Registered {
  playerId: string;
  token: string;
}

/**
 * Set-up steps (outside the measured windows) are retried for up to ~40 s: the shared
 * PostgreSQL on the bench machine is sometimes restarted by other people's fault tests.
 */
export async function retrySetup<T>(
  what: string,
  fn: () => Promise<T>,
  log: (line: string) => void = () => undefined,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= 20) throw err;
      if (attempt === 1)
        log(`${what} failed (${err instanceof Error ? err.message.slice(0, 120) : String(err)}); retrying`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

export async function registerPlayer(http: HttpClient, i: number): Promise<Registered> {
  const res = await http.request('POST', '/v1/players', { displayName: `bench-${i}` });
  if (res.status !== 201) throw new Error(`register: HTTP ${res.status} ${res.body.slice(0, 300)}`);
  const body = JSON.parse(res.body);
  return { playerId: body.player.id, token: body.token };
}

export interface PlayStats {
  gamesFinished: number;
  byKind: Record<'create' | 'start' | 'roll' | 'score', number>;
}

export const newPlayStats = (): PlayStats => ({ gamesFinished: 0, byKind: { create: 0, start: 0, roll: 0, score: 0 } });

type Phase = 'create' | 'start' | 'roll' | 'score';

/** The state machine both API flavours share; `send` performs one command and returns the raw body. */
export abstract class GamePlayer implements VirtualClient {
  private phase: Phase = 'create';
  private box = 0;
  gameId: string | null = null;
  /** Games this player finished (the reads scenario may reuse them). */
  readonly finished: string[] = [];

  constructor(
    protected readonly http: HttpClient,
    protected readonly me: Registered,
    private readonly stats: PlayStats,
  ) {}

  protected abstract create(): Promise<string>;
  protected abstract start(id: string): Promise<void>;
  protected abstract roll(id: string): Promise<void>;
  /** Returns the game's status after the score. */
  protected abstract score(id: string, box: string, last: boolean): Promise<string | null>;

  async step(): Promise<void> {
    const phase = this.phase;
    try {
      switch (phase) {
        case 'create':
          this.gameId = await this.create();
          this.box = 0;
          this.phase = 'start';
          break;
        case 'start':
          await this.start(this.gameId!);
          this.phase = 'roll';
          break;
        case 'roll':
          await this.roll(this.gameId!);
          this.phase = 'score';
          break;
        case 'score': {
          const last = this.box === BOX_IDS.length - 1;
          const status = await this.score(this.gameId!, BOX_IDS[this.box], last);
          this.box++;
          if (last) {
            if (status !== 'finished')
              throw new Error(`game ${this.gameId} not finished after the last box (status ${status})`);
            this.stats.gamesFinished++;
            this.finished.push(this.gameId!);
            if (this.finished.length > 8) this.finished.shift();
            this.phase = 'create';
          } else this.phase = 'roll';
          break;
        }
      }
      this.stats.byKind[phase]++;
    } catch (err) {
      this.phase = 'create'; // start over with a fresh game
      throw err;
    }
  }

  protected get auth(): Record<string, string> {
    return { authorization: `Bearer ${this.me.token}` };
  }
}

const fail = (what: string, status: number, body: string) => new Error(`${what}: HTTP ${status} ${body.slice(0, 300)}`);

export class RestPlayer extends GamePlayer {
  /** compact: every command sends Prefer: return=minimal (the command's events and the version only). */
  constructor(
    http: HttpClient,
    me: Registered,
    stats: PlayStats,
    private readonly compact = false,
  ) {
    super(http, me, stats);
  }
  protected override get auth(): Record<string, string> {
    const auth = { authorization: `Bearer ${this.me.token}` };
    return this.compact ? { ...auth, prefer: 'return=minimal' } : auth;
  }
  protected async create(): Promise<string> {
    const r = await this.http.request('POST', '/v1/games', { ruleSet: RULE_SET, seats: 1 }, this.auth);
    if (r.status !== 201) throw fail('create', r.status, r.body);
    const body = JSON.parse(r.body);
    return this.compact ? body.gameId : body.id;
  }
  protected async start(id: string): Promise<void> {
    const r = await this.http.request('POST', `/v1/games/${id}/start`, {}, this.auth);
    if (r.status !== 200) throw fail('start', r.status, r.body);
  }
  protected async roll(id: string): Promise<void> {
    const r = await this.http.request('POST', `/v1/games/${id}/roll`, {}, this.auth);
    if (r.status !== 200) throw fail('roll', r.status, r.body);
  }
  protected async score(id: string, box: string, last: boolean): Promise<string | null> {
    const r = await this.http.request('POST', `/v1/games/${id}/score`, { box }, this.auth);
    if (r.status !== 200) throw fail('score', r.status, r.body);
    if (!last) return null;
    const body = JSON.parse(r.body);
    if (!this.compact) return body.status;
    // A client that keeps its own state learns the end from the events.
    return (body.events as Array<{ type: string }>).some((e) => e.type === 'gameFinished') ? 'finished' : 'playing';
  }
}

/**
 * What a game client would select after a move: enough to draw the sheet and the next choice
 * (not every field of GameView, which REST always returns in full).
 */
export const GQL_VIEW = `id status version currentSeat dice held rollsLeft
  fiveDice { rollInTurn sheets { seat boxes { box points } total } scoreOptions { boxes { box points allowed } } }`;

const Q_CREATE = `mutation Create($input: CreateGameInput!) { createGame(input: $input) { id status version } }`;
const Q_START = `mutation Start($gameId: ID!) { startGame(gameId: $gameId) { id status version currentSeat } }`;
const Q_ROLL = `mutation Roll($gameId: ID!) { roll(gameId: $gameId) { ${GQL_VIEW} } }`;
const Q_SCORE = `mutation Score($gameId: ID!, $box: BoxId!) { score(gameId: $gameId, box: $box) { ${GQL_VIEW} } }`;

export class GraphqlPlayer extends GamePlayer {
  private async gql(what: string, query: string, variables: Record<string, unknown>): Promise<string> {
    const r = await this.http.request('POST', '/graphql', { query, variables }, this.auth);
    // Apollo answers 200 with an `errors` array for resolver errors.
    if (r.status !== 200 || r.body.includes('"errors"')) throw fail(`graphql ${what}`, r.status, r.body);
    return r.body;
  }
  protected async create(): Promise<string> {
    return JSON.parse(await this.gql('createGame', Q_CREATE, { input: { ruleSet: RULE_SET, seats: 1 } })).data
      .createGame.id;
  }
  protected async start(id: string): Promise<void> {
    await this.gql('startGame', Q_START, { gameId: id });
  }
  protected async roll(id: string): Promise<void> {
    await this.gql('roll', Q_ROLL, { gameId: id });
  }
  protected async score(id: string, box: string, last: boolean): Promise<string | null> {
    const body = await this.gql('score', Q_SCORE, { gameId: id, box });
    return last ? JSON.parse(body).data.score.status : null;
  }
}

/**
 * Reads: GET /v1/games/:id of the player's own game, in progress (created, started, rolled once,
 * so the view has dice and score options), with the player's token as a real client sends it.
 */
export class Reader implements VirtualClient {
  constructor(
    private readonly http: HttpClient,
    private readonly me: Registered,
    readonly gameId: string,
  ) {}

  static async prepare(http: HttpClient, me: Registered): Promise<Reader> {
    const auth = { authorization: `Bearer ${me.token}` };
    const c = await http.request('POST', '/v1/games', { ruleSet: RULE_SET, seats: 1 }, auth);
    if (c.status !== 201) throw fail('reads setup: create', c.status, c.body);
    const id = JSON.parse(c.body).id as string;
    for (const [path, what] of [
      [`/v1/games/${id}/start`, 'start'],
      [`/v1/games/${id}/roll`, 'roll'],
    ]) {
      const r = await http.request('POST', path, {}, auth);
      if (r.status !== 200) throw fail(`reads setup: ${what}`, r.status, r.body);
    }
    return new Reader(http, me, id);
  }

  async step(): Promise<void> {
    const r = await this.http.request('GET', `/v1/games/${this.gameId}`, undefined, {
      authorization: `Bearer ${this.me.token}`,
    });
    if (r.status !== 200) throw fail('read', r.status, r.body);
  }
}

/** Ceiling (a)'s client: GET / of the hello-world server. */
export function helloClient(http: HttpClient): VirtualClient {
  return {
    async step() {
      const r = await http.request('GET', '/');
      if (r.status !== 200) throw fail('hello', r.status, r.body);
    },
  };
}
