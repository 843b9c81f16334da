/**
 * Ceiling (a): a bare Fastify "hello world" on the same Fastify major as the app (no Nest, no
 * logging, no hooks). Started as a child process by bench/run.ts; PORT and HOST from the env.
 */
import Fastify from 'fastify';

async function main() {
  const app = Fastify({ logger: false });
  // eslint-disable-next-line @typescript-eslint/require-await -- an async handler, like the app's: same Fastify path as what it is the ceiling of
  app.get('/', async () => ({ hello: 'world' }));
  const close = () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', close);
  process.on('SIGINT', close);
  await app.listen({ port: Number(process.env.PORT ?? 3001), host: process.env.HOST ?? '127.0.0.1' });
}

main().catch((err) => {
  process.stderr.write(`hello-server: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
