import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * An offline GraphQL IDE at /graphiql. Apollo's and Nest's stock pages load their scripts from
 * a CDN, so they are blank without internet; this page serves GraphiQL 3, React 18 and the
 * graphql-ws client (for subscriptions) from node_modules.
 */
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

const ASSETS: Record<string, { file: () => string; type: string }> = {
  'react.js': { file: () => join(packageDir('react'), 'umd/react.production.min.js'), type: 'application/javascript' },
  'react-dom.js': {
    file: () => join(packageDir('react-dom'), 'umd/react-dom.production.min.js'),
    type: 'application/javascript',
  },
  'graphiql.js': { file: () => join(packageDir('graphiql'), 'graphiql.min.js'), type: 'application/javascript' },
  'graphiql.css': { file: () => join(packageDir('graphiql'), 'graphiql.min.css'), type: 'text/css' },
  'graphql-ws.js': {
    file: () => join(packageDir('graphql-ws'), 'umd/graphql-ws.min.js'),
    type: 'application/javascript',
  },
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>fairdice GraphiQL</title>
  <link rel="stylesheet" href="/graphiql/assets/graphiql.css" />
  <style>body { margin: 0; height: 100vh; } #graphiql { height: 100vh; }</style>
</head>
<body>
  <div id="graphiql">Loading GraphiQL…</div>
  <script src="/graphiql/assets/react.js"></script>
  <script src="/graphiql/assets/react-dom.js"></script>
  <script src="/graphiql/assets/graphql-ws.js"></script>
  <script src="/graphiql/assets/graphiql.js"></script>
  <script>
    var wsUrl = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/graphql';
    var token = localStorage.getItem('fairdice.token');
    var fetcher = GraphiQL.createFetcher({
      url: '/graphql',
      wsClient: graphqlWs.createClient({ url: wsUrl, connectionParams: function () { var t = localStorage.getItem('fairdice.token'); return t ? { authorization: 'Bearer ' + t } : {}; } }),
    });
    ReactDOM.createRoot(document.getElementById('graphiql')).render(
      React.createElement(GraphiQL, {
        fetcher: fetcher,
        defaultEditorToolsVisibility: true,
        headers: token ? JSON.stringify({ authorization: 'Bearer ' + token }, null, 2) : undefined,
        defaultQuery: '# fairdice GraphQL API. Put your token in the Headers tab:\\n# { "authorization": "Bearer <token>" }\\n{\\n  serviceInfo { name version }\\n}\\n',
      }),
    );
  </script>
</body>
</html>`;

export function registerGraphiql(fastify: FastifyInstance): void {
  const cache = new Map<string, Buffer>();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- needed: tsc rejects `hide` (a @fastify/swagger extension FastifySchema lacks) without it
  fastify.get('/graphiql', { schema: { hide: true } as object }, async (_request, reply) => {
    reply.type('text/html; charset=utf-8').send(PAGE);
  });
  fastify.get<{ Params: { file: string } }>(
    '/graphiql/assets/:file',
    { schema: { hide: true } as object },
    async (request, reply) => {
      const asset = ASSETS[request.params.file];
      if (!asset)
        return reply.code(404).type('application/problem+json').send({
          type: 'about:blank',
          title: 'No such asset',
          status: 404,
          code: 'ROUTE_NOT_FOUND',
          detail: 'No such asset',
        });
      let body = cache.get(request.params.file);
      if (!body) {
        body = readFileSync(asset.file());
        cache.set(request.params.file, body);
      }
      reply.type(asset.type).header('cache-control', 'public, max-age=86400').send(body);
    },
  );
}
