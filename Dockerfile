# fairdice API image. Build: docker build -t fairdice .
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm workspaces (docs/decisions/0018): npm ci links node_modules/@fairdice/core -> packages/core.
COPY packages/core/package.json ./packages/core/
COPY packages/verifier/package.json ./packages/verifier/
# The SDK's workspace (its dependencies; the web client imports it as @fairdice/client).
COPY packages/client/package.json ./packages/client/
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm ci --no-audit --no-fund
COPY . .
# The run-time tree (docs/decisions/0093): without the dev packages AND without the optional ones,
# because @prisma/client names the Prisma CLI (`prisma`) and `typescript` as optional peers, which
# keeps them (npm's "devOptional") under --omit=dev alone. The only optional run-time packages,
# pg-cloudflare (Cloudflare Workers sockets) and @emotion/* (inside GraphiQL's sources; the page
# serves graphiql's prebuilt bundle), are never loaded on Node. The service migrates with its own
# step (src/database/migrate.ts), not the Prisma CLI. One optional package IS needed on Node:
# @node-rs/argon2's native binary for this platform (@node-rs/argon2-<platform>, decision 0108),
# so @node-rs is set aside before the prune and put back after it.
RUN npm run build && cp -a node_modules/@node-rs /tmp/node-rs \
 && npm prune --omit=dev --omit=optional && cp -a /tmp/node-rs/. node_modules/@node-rs/ && rm -rf /tmp/node-rs

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# @fairdice/core at run time: the workspace link in node_modules points here (package.json + built dist).
COPY --from=build /app/packages/core/package.json ./packages/core/
COPY --from=build /app/packages/core/dist ./packages/core/dist
# The verifier page served at GET /verify (node_modules/fairdice-verify -> packages/verifier).
COPY --from=build /app/packages/verifier/package.json ./packages/verifier/
COPY --from=build /app/packages/verifier/dist/verify.html ./packages/verifier/dist/
# The reference web client served at GET / (web/dist: index.html and content-hashed assets).
COPY --from=build /app/web/dist ./web/dist
COPY --from=build /app/prisma ./prisma
# The OpenAPI document: the game views' serializer is compiled from it at start (decision 0141).
COPY --from=build /app/openapi ./openapi
# The advice tables' disk cache (ADVICE_CACHE_DIR, default ./data/advice), writable by the service.
RUN mkdir -p /app/data/advice && chown -R node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/ready').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "dist/src/main.js"]
