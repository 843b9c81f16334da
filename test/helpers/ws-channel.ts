/**
 * A raw client of the WebSocket command channel (/v1/ws, docs/api.md) for the tests: keeps every
 * frame received, resolves `frame(pred)` with the first one not yet taken that matches (waiting
 * for it when it has not come yet), and `closed` with the close code. No fixed sleeps.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- ws ships no types here
const WebSocket: any = require('ws');

export type Frame = Record<string, any>;

export class ChannelClient {
  readonly frames: Frame[] = [];
  private readonly taken = new Set<Frame>();
  private readonly waiters: Array<{ pred: (f: Frame) => boolean; resolve: (f: Frame) => void }> = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;
  readonly ws: any;

  constructor(port: number, protocols: string[] = ['fairdice.v1']) {
    this.ws = new WebSocket(`ws://127.0.0.1:${port}/v1/ws`, protocols);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.closed = new Promise((resolve) =>
      this.ws.on('close', (code: number, reason: Buffer) => resolve({ code, reason: String(reason) })),
    );
    this.ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(String(data)) as Frame;
      this.frames.push(frame);
      for (let i = 0; i < this.waiters.length; i++) {
        const w = this.waiters[i];
        if (!this.taken.has(frame) && w.pred(frame)) {
          this.taken.add(frame);
          this.waiters.splice(i, 1);
          w.resolve(frame);
          break;
        }
      }
    });
  }

  /** Opens a connection and authenticates with an `auth` frame; resolves on `ready`. */
  static async connect(port: number, token: string): Promise<ChannelClient> {
    const c = new ChannelClient(port);
    await c.opened;
    c.send({ type: 'auth', token });
    await c.frame((f) => f.type === 'ready');
    return c;
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The first frame not yet taken that matches, now or when it comes. */
  frame(pred: (f: Frame) => boolean): Promise<Frame> {
    const found = this.frames.find((f) => !this.taken.has(f) && pred(f));
    if (found) {
      this.taken.add(found);
      return Promise.resolve(found);
    }
    return new Promise((resolve) => this.waiters.push({ pred, resolve }));
  }

  /** The answer (result or error) to the frame of this id. */
  answer(id: string): Promise<Frame> {
    return this.frame((f) => f.id === id && (f.type === 'result' || f.type === 'error'));
  }

  /** Sends a move and resolves with its answer. */
  async move(frame: Record<string, unknown>): Promise<Frame> {
    this.send({ type: 'move', ...frame });
    return this.answer(String(frame.id));
  }

  close(): Promise<{ code: number; reason: string }> {
    this.ws.close(1000);
    return this.closed;
  }
}
