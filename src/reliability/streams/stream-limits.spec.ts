import { DomainException } from '../../common/errors';
import { StreamLimits } from './stream-limits';

const settings = {
  wsPerAddress: 2,
  wsPerPlayer: 1,
  subscriptionsPerConnection: 1,
  ssePerAddress: 1,
  connectionInitTimeoutMs: 1234,
};

describe('StreamLimits', () => {
  it('counts slots per key, refuses over the cap, and forgets a key whose slots are all released', () => {
    const limits = new StreamLimits(settings);
    const refused: string[] = [];
    limits.onRefused = (kind, reason) => refused.push(`${kind}:${reason}`);
    const a = limits.openWebSocket('10.0.0.1');
    const b = limits.openWebSocket('10.0.0.1');
    expect(limits.openWebSocket('10.0.0.1')).toBeNull();
    expect(limits.openWebSocket('10.0.0.2')).not.toBeNull();
    expect(limits.identifyWebSocket('p1')).not.toBeNull();
    expect(limits.identifyWebSocket('p1')).toBeNull();
    expect(limits.openSubscription(1)).toBeNull();
    const sse = limits.openSse('10.0.0.1');
    expect(() => limits.openSse('10.0.0.1')).toThrow(DomainException);
    expect(refused).toEqual([
      'websocket:per_address',
      'websocket:per_player',
      'subscription:per_connection',
      'sse:per_address',
    ]);
    expect(limits.counts()).toEqual({ websockets: 3, subscriptions: 0, sse: 1 });

    a!.release();
    a!.release(); // idempotent: a double close does not free someone else's slot
    expect(limits.counts().websockets).toBe(2);
    b!.release();
    sse.release();
    expect(limits.counts()).toEqual({ websockets: 1, subscriptions: 0, sse: 0 });
  });

  it('a refused SSE stream is 429 TOO_MANY_STREAMS with Retry-After', () => {
    const limits = new StreamLimits(settings);
    limits.openSse('a');
    try {
      limits.openSse('a');
      throw new Error('not refused');
    } catch (e) {
      expect(e).toBeInstanceOf(DomainException);
      expect((e as DomainException).code).toBe('TOO_MANY_STREAMS');
      expect((e as DomainException).headers).toEqual({ 'retry-after': '5' });
    }
  });
});
