import { graphqlOptions } from './app.module';
import { loadConfig } from './config/config';
import { StreamLimits } from './reliability/streams/stream-limits';

describe('graphqlOptions', () => {
  it('graphql-ws gets the configured connection_init timeout', () => {
    const config = loadConfig({ NODE_ENV: 'test', WS_CONNECTION_INIT_TIMEOUT_MS: '1234' });
    const limits = new StreamLimits({
      wsPerAddress: 1,
      wsPerPlayer: 1,
      subscriptionsPerConnection: 1,
      ssePerAddress: 1,
      connectionInitTimeoutMs: config.WS_CONNECTION_INIT_TIMEOUT_MS,
    });
    const ws = (graphqlOptions(config, limits).subscriptions as Record<string, any>)['graphql-ws'];
    expect(ws.connectionInitWaitTimeout).toBe(1234);
  });
});
