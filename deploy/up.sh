#!/usr/bin/env bash
# Starts everything on this machine: dependencies, Postgres/Redis/Kafka,
# migrations, every service, and a demo project with a small traffic generator
# (deploy/demo-traffic.ts) so its tiles move. Safe to run again.
# Usage: deploy/up.sh [--no-demo-traffic]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$root"

demo_traffic=true
for arg in "$@"; do
  case "$arg" in
    --no-demo-traffic) demo_traffic=false ;;
    *) echo "usage: $0 [--no-demo-traffic]" >&2; exit 2 ;;
  esac
done

export DATABASE_URL="${DATABASE_URL:-$DEFAULT_DATABASE_URL}"
export REDIS_URL="${REDIS_URL:-$DEFAULT_REDIS_URL}"
export KAFKA_BROKERS="${KAFKA_BROKERS:-127.0.0.1:9092}"
export GATEWAY_PORT="${GATEWAY_PORT:-8080}"
export BROADCAST_PORT="${BROADCAST_PORT:-8081}"
# The dashboard (served by broadcast) reaches the API through broadcast, on its own origin.
export BROADCAST_API_URL="${BROADCAST_API_URL:-http://127.0.0.1:$GATEWAY_PORT}"
# Notification targets are global unicast addresses here as in production: no loopback, no private network,
# no localhost (SSRF). A local receiver is allowed only by its exact address and port, when you set
# NOTIFY_ALLOW_TARGETS=127.0.0.1:4567 yourself (SECURITY.md, Outbound requests).
# The admin token and the key that seals stored notification secrets are made once per machine
# and kept in the state dir (mode 600); the services refuse to start without strong ones.
# Yours win when set in the environment.
keep_secret() { # <variable> <file>
  local name=$1 file=$2
  if [[ -z "${!name:-}" ]]; then
    [[ -s "$file" ]] || (umask 077 && node -e "process.stdout.write(require('crypto').randomBytes(32).toString('base64url'))" >"$file")
    printf -v "$name" '%s' "$(cat "$file")"
  fi
  export "${name?}"
}
token_file="$state_dir/admin-token"
keep_secret ADMIN_TOKEN "$token_file"
new_secrets_key=false
[[ -z "${SECRETS_KEY:-}" && ! -s "$state_dir/secrets-key" ]] && new_secrets_key=true
keep_secret SECRETS_KEY "$state_dir/secrets-key"

install_deps
bash deploy/infra.sh up
pnpm --silent migrate
# Earlier releases sealed with a published development key when none was set: the first run
# that generates a key seals what they stored again under it (nothing to do on a new database).
# Broadcast shows it to the gateway with the dashboard's API calls, so the gateway counts each
# browser's address (failed authentications, limits) instead of broadcast's (SECURITY.md, Trusted proxies).
keep_secret INTERNAL_PROXY_SECRET "$state_dir/internal-proxy-secret"
if [[ "$new_secrets_key" == true ]]; then
  SECRETS_KEY_PREVIOUS=pulseboard-development-secrets-key pnpm --silent secrets:rotate ||
    echo "warning: some stored notification secrets open under neither key; see SECURITY.md (Rotating SECRETS_KEY)" >&2
fi
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
  seeded="$(node_src deploy/seed-demo.ts "$gateway")"
  echo "$seeded"
  if [[ "$demo_traffic" == true ]]; then
    echo
    PULSEBOARD_DEMO_API_KEY="$(sed -n 's/^PULSEBOARD_DEMO_API_KEY=//p' <<<"$seeded")" \
      PULSEBOARD_DEMO_PROJECT_KEY="$(sed -n 's/^PULSEBOARD_DEMO_PROJECT_KEY=//p' <<<"$seeded")" \
      bash deploy/demo-traffic.sh start "$gateway"
  else
    # A generator from an earlier run holds the key seed-demo.ts just replaced.
    bash deploy/demo-traffic.sh stop
  fi
fi
