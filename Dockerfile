# One image for every service; the command picks the service:
#   docker build -t pulseboard .
#   docker run pulseboard services/gateway/dist/main.js
#   docker run pulseboard packages/db/dist/migrate-cli.js      (all migrations)
# NODE_IMAGE: the official Node 24 LTS image by default; CI builds on the local
# base that deploy/images.sh makes (no registry is reachable there).
ARG NODE_IMAGE=node:24-bookworm-slim

# pnpm (the version package.json pins, through corepack, as the deploy scripts
# get it) and every locked package, fetched once.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
# No prompts from pnpm (e.g. before it replaces the fetched node_modules) or corepack.
ENV CI=true COREPACK_ENABLE_DOWNLOAD_PROMPT=0 COREPACK_INTEGRITY_KEYS=0
# The base CI builds on carries node and npm only: corepack comes from npm too.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
RUN npm install --global --no-fund --no-audit corepack@0.34.6 \
 && corepack enable pnpm && corepack install
COPY patches ./patches
RUN pnpm fetch --frozen-lockfile

# Compiled JavaScript (tsc project references, deploy/build.sh).
FROM deps AS build
COPY . .
RUN pnpm install --offline --frozen-lockfile && bash deploy/build.sh \
 && tar -cf /tmp/dist.tar $(ls -d packages/*/dist services/*/dist)

# The services' production dependencies only, beside what they run: dist/,
# migrations, the dashboard's files; no sources, tests or dev tools.
FROM deps AS runtime-tree
COPY . .
RUN rm -rf node_modules \
 && pnpm install --offline --frozen-lockfile --prod --filter "{./services/*}..." \
 && rm -rf packages/cli packages/test-kit \
 && find packages services -mindepth 2 -maxdepth 2 -name src -type d -exec rm -rf {} +
# Every package's and service's dist/, whichever there are.
COPY --from=build /tmp/dist.tar /tmp/dist.tar
RUN tar -xf /tmp/dist.tar && rm /tmp/dist.tar

FROM ${NODE_IMAGE}
WORKDIR /app
COPY --from=runtime-tree /app/package.json /app/
COPY --from=runtime-tree /app/node_modules /app/node_modules
COPY --from=runtime-tree /app/packages /app/packages
COPY --from=runtime-tree /app/services /app/services
COPY --from=runtime-tree /app/deploy/services.txt /app/deploy/healthcheck.mjs /app/deploy/
# Not root: the files belong to root and are read-only to the service.
USER 1000:1000
HEALTHCHECK --interval=5s --timeout=3s --start-period=20s --retries=6 CMD ["node", "deploy/healthcheck.mjs"]
ENTRYPOINT ["node"]
CMD ["services/gateway/dist/main.js"]
