# One image for every service; the command picks the service.
#   docker build -t pulseboard .
#   docker run pulseboard services/gateway/src/main.ts
FROM node:20-bookworm-slim
ENV COREPACK_ENABLE_DOWNLOAD_PROMPT=0
WORKDIR /app
RUN corepack enable
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml tsconfig.base.json tsconfig.json ./
# pnpm applies patches/ (patchedDependencies) at install.
COPY patches ./patches
COPY packages ./packages
COPY services ./services
# Before NODE_ENV=production: the services run through tsx, a root devDependency.
RUN pnpm install --frozen-lockfile
ENV NODE_ENV=production
USER node
ENTRYPOINT ["node", "--import", "tsx"]
CMD ["services/gateway/src/main.ts"]
