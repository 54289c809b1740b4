#!/usr/bin/env bash
# Starts everything on this machine: dependencies, Postgres/Redis/Kafka,
# migrations, every service, and a demo project. Safe to run again.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$root"

export DATABASE_URL="${DATABASE_URL:-$DEFAULT_DATABASE_URL}"
export REDIS_URL="${REDIS_URL:-$DEFAULT_REDIS_URL}"
export KAFKA_BROKERS="${KAFKA_BROKERS:-127.0.0.1:9092}"
export GATEWAY_PORT="${GATEWAY_PORT:-8080}"
export BROADCAST_PORT="${BROADCAST_PORT:-8081}"
# Local receivers (127.0.0.1) may get notifications here; production refuses loopback targets (SSRF).
export NOTIFY_ALLOW_LOOPBACK="${NOTIFY_ALLOW_LOOPBACK:-true}"
# The admin token is made once per machine and kept in the state dir (mode 600).
token_file="$state_dir/admin-token"
if [[ -z "${ADMIN_TOKEN:-}" ]]; then
  [[ -s "$token_file" ]] || (umask 077 && node -e "process.stdout.write(require('crypto').randomBytes(24).toString('base64url'))" >"$token_file")
  ADMIN_TOKEN="$(cat "$token_file")"
fi
export ADMIN_TOKEN

install_deps
bash deploy/infra.sh up
pnpm --silent migrate
bash deploy/services.sh start

gateway="http://127.0.0.1:$GATEWAY_PORT"
echo
echo "Pulseboard is up:"
echo "  API and ingest   $gateway   (POST $gateway/ingest, $gateway/api/v1/...)"
echo "  live dashboard   http://127.0.0.1:$BROADCAST_PORT/   (WebSocket ws://127.0.0.1:$BROADCAST_PORT/ws)"
echo "  metrics          $gateway/metrics"
echo "  Kafka            $KAFKA_BROKERS    Postgres $DATABASE_URL    Redis $REDIS_URL"
echo "  admin token      in $token_file"
echo "  logs             $state_dir/run/*.log     stop with: bash deploy/down.sh"
if [[ -f deploy/seed-demo.ts ]]; then
  echo
  # The token goes through the environment, not argv, where any process list would show it.
  node_src deploy/seed-demo.ts "$gateway"
fi
