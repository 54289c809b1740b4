# One image for every service; the command picks the service.
#   docker build -t pulseboard .
#   docker run pulseboard services/gateway/src/main.ts
FROM node:20-bookworm-slim
ENV NODE_ENV=production COREPACK_ENABLE_DOWNLOAD_PROMPT=0
WORKDIR /app
RUN corepack enable
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml tsconfig.base.json tsconfig.json ./
# pnpm applies patches/ (patchedDependencies) at install.
COPY patches ./patches
COPY packages ./packages
COPY services ./services
RUN pnpm install --frozen-lockfile
USER node
ENTRYPOINT ["node", "--import", "tsx"]
CMD ["services/gateway/src/main.ts"]
