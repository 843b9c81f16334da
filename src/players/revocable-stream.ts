/**
 * A stream that ends when the token that opened it stops authenticating (docs/accounts.md
 * "Scoped tokens"): the items of `inner` until `watch` reports the token revoked, then one
 * TokenRevoked item, then the end. Used by the SSE streams a token may open (game streams); the
 * player event stream checks its token itself (src/player-events), the WebSockets close.
 */

/** The last item of a stream whose token was rotated, revoked or expired. */
export interface TokenRevoked {
  kind: 'token-revoked';
}

export const isTokenRevoked = (item: unknown): item is TokenRevoked =>
  typeof item === 'object' && item !== null && (item as TokenRevoked).kind === 'token-revoked';

/** The problem a revoked stream's last message carries (as the player event stream's `revoked`). */
export const TOKEN_REVOKED_MESSAGE = {
  type: 'revoked',
  code: 'UNAUTHENTICATED',
  status: 401,
  detail:
    'The token that opened this stream no longer authenticates (rotated, revoked or expired); the stream ends here',
} as const;

type Closable<T> = AsyncIterableIterator<T> & { close(): void };

/** Watches a token: calls onRevoked once it stops authenticating; returns stop (PlayersService.watchToken). */
export type TokenWatcher = (onRevoked: () => void) => () => void;

export class RevocableStream<T> implements AsyncIterableIterator<T | TokenRevoked> {
  private revoked = false;
  private revokedSent = false;
  private readonly stop: () => void;

  constructor(
    private readonly inner: Closable<T>,
    watch: TokenWatcher,
  ) {
    this.stop = watch(() => this.revoke());
  }

  private revoke(): void {
    if (this.revoked) return;
    this.revoked = true;
    // Resolves a pending next() of the inner stream as done: next() below then yields the revocation.
    this.inner.close();
  }

  async next(): Promise<IteratorResult<T | TokenRevoked>> {
    if (!this.revoked) {
      const r = await this.inner.next();
      if (!this.revoked) {
        if (r.done) this.stop();
        return r;
      }
    }
    if (this.revokedSent) return { value: undefined, done: true };
    this.revokedSent = true;
    return { value: { kind: 'token-revoked' }, done: false };
  }

  return(): Promise<IteratorResult<T | TokenRevoked>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  close(): void {
    this.stop();
    this.inner.close();
  }
}
