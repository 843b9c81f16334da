/**
 * The WebSocket command channel's virtual player (`/v1/ws`, docs/api.md): the same solo
 * five-dice game as the REST players (start → 13 × (roll, score)), every command a `move` frame
 * on the player's one connection, authenticated once (the token subprotocol). A new game is a
 * `rematch` frame of the last finished one (the channel has no create; only each client's first
 * game is created over REST, in the warm-up). One step = one frame and its answer.
 */
import type { HttpClient } from './load';
import { GamePlayer, type PlayStats, type Registered, RULE_SET } from './players';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- ws ships no types here
const WebSocket = require('ws') as new (
  url: string,
  protocols: string[],
) => {
  send(data: string): void;
  close(): void;
  on(event: 'message', fn: (data: Buffer) => void): void;
  on(event: 'open' | 'close', fn: () => void): void;
  on(event: 'error', fn: (err: Error) => void): void;
};

type Answer = { type: string; id: string; gameId?: string; events?: Array<{ type: string }>; problem?: unknown };

/** One channel connection: frames sent by id, answers matched by id. */
class Channel {
  private seq = 0;
  private readonly pending = new Map<string, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();

  private constructor(private readonly ws: InstanceType<typeof WebSocket>) {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString('utf8')) as Answer;
      const p = this.pending.get(frame.id);
      if (!p) return;
      this.pending.delete(frame.id);
      if (frame.type === 'result') p.resolve(frame);
      else p.reject(new Error(`move: ${JSON.stringify(frame.problem).slice(0, 300)}`));
    });
    ws.on('close', () => {
      for (const p of this.pending.values()) p.reject(new Error('channel closed'));
      this.pending.clear();
    });
  }

  static open(port: number, token: string): Promise<Channel> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/ws`, ['fairdice.v1', `fairdice.token.${token}`]);
    return new Promise((resolve, reject) => {
      ws.on('error', reject);
      // Refused (e.g. 4429 past a connection cap): fail the run instead of waiting for ever.
      ws.on('close', () => reject(new Error('channel closed before ready')));
      ws.on('message', function ready(data: Buffer) {
        const frame = JSON.parse(data.toString('utf8')) as { type: string };
        if (frame.type === 'ready') resolve(new Channel(ws));
        else reject(new Error(`channel: ${data.toString('utf8').slice(0, 300)}`));
      });
    });
  }

  move(gameId: string, command: string, args?: Record<string, unknown>): Promise<Answer> {
    const id = String(++this.seq);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ type: 'move', id, gameId, command, ...(args ? { args } : {}) }));
    });
  }

  close(): void {
    this.ws.close();
  }
}

export class WsPlayer extends GamePlayer {
  private channel: Promise<Channel> | null = null;

  constructor(
    http: HttpClient,
    me: Registered,
    stats: PlayStats,
    private readonly port: number,
  ) {
    super(http, me, stats);
  }

  private conn(): Promise<Channel> {
    this.channel ??= Channel.open(this.port, this.me.token);
    return this.channel;
  }

  protected async create(): Promise<string> {
    const last = this.finished[this.finished.length - 1];
    if (last) return (await (await this.conn()).move(last, 'rematch')).gameId!;
    const r = await this.http.request('POST', '/v1/games', { ruleSet: RULE_SET, seats: 1 }, this.auth);
    if (r.status !== 201) throw new Error(`create: HTTP ${r.status} ${r.body.slice(0, 300)}`);
    return (JSON.parse(r.body) as { id: string }).id;
  }
  protected async start(id: string): Promise<void> {
    await (await this.conn()).move(id, 'start');
  }
  protected async roll(id: string): Promise<void> {
    await (await this.conn()).move(id, 'roll');
  }
  protected async score(id: string, box: string, last: boolean): Promise<string | null> {
    const answer = await (await this.conn()).move(id, 'score', { box });
    if (!last) return null;
    return answer.events!.some((e) => e.type === 'gameFinished') ? 'finished' : 'playing';
  }

  async close(): Promise<void> {
    (await this.channel?.catch(() => null))?.close();
  }
}
