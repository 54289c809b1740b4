#!/usr/bin/env bash
# Starts everything on this machine: dependencies, Postgres/Redis/Kafka,
# migrations, every service, and a demo project with a small traffic generator
# (deploy/demo-traffic.ts) so its tiles move, and prints one dashboard link
# signed in to it. Safe to run again: the demo's user token and API key are
# kept in the state dir and stay valid; --rotate issues new ones on purpose.
# Every port, database and topic comes from the environment (defaults below and
# in the services' env schemas), so a second stack can run beside the first.
# Usage: deploy/up.sh [--no-demo-traffic] [--rotate]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$root"

demo_traffic=true
rotate=false
for arg in "$@"; do
  case "$arg" in
    --no-demo-traffic) demo_traffic=false ;;
    --rotate) rotate=true ;;
    *) echo "usage: $0 [--no-demo-traffic] [--rotate]" >&2; exit 2 ;;
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
# Broadcast shows it to the gateway with the dashboard's API calls, so the gateway counts each
# browser's address (failed authentications, limits) instead of broadcast's (SECURITY.md, Trusted proxies).
keep_secret INTERNAL_PROXY_SECRET "$state_dir/internal-proxy-secret"

install_deps
bash deploy/infra.sh up
pnpm --silent migrate
# Earlier releases sealed with a published development key when none was set: the first run
# that generates a key seals what they stored again under it (nothing to do on a new database).
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
  # The demo user's token and the demo project's key, kept like the admin token (mode 600).
  credentials="$state_dir/demo-credentials.json"
  seed_args=("$gateway" --credentials "$credentials")
  [[ "$rotate" == true ]] && seed_args+=(--rotate)
  # The admin token goes through the environment, not argv, where any process list would show it.
  seeded="$(node_src deploy/seed-demo.ts "${seed_args[@]}")"
  printed() { sed -n "s/^$1=//p" <<<"$seeded"; }
  demo_project="$(printed PULSEBOARD_DEMO_PROJECT_KEY)" demo_token="$(printed PULSEBOARD_DEMO_USER_TOKEN)" demo_key="$(printed PULSEBOARD_DEMO_API_KEY)"
  grep -v -e '^PULSEBOARD_DEMO_' -e '^Try:' -e '^       -d' <<<"$seeded"
  dashboard="http://127.0.0.1:$BROADCAST_PORT/"
  echo
  # The credentials ride in the fragment (after #), which the browser never sends to a server:
  # the page moves them to the tab's storage and clears the address bar.
  echo "Open the live dashboard, signed in to project $demo_project as the demo user:"
  echo "  ${dashboard}#project=${demo_project}&token=${demo_token}"
  echo "Signing in by hand instead: open $dashboard and paste the user token into \"User token or project key\"."
  echo "  PULSEBOARD_DEMO_USER_TOKEN=$demo_token"
  echo "      the demo user's token: every project, tile and notification of the demo account (the dashboard, the API)"
  echo "  PULSEBOARD_DEMO_API_KEY=$demo_key"
  echo "      project $demo_project's API key: sends its events (Authorization: Bearer); signs in to that project alone"
  echo "  PULSEBOARD_DEMO_PROJECT_KEY=$demo_project"
  echo "  Kept in $credentials: running up.sh again keeps them working; new ones on purpose: bash deploy/up.sh --rotate"
  echo "A first event of your own (export PULSEBOARD_DEMO_API_KEY=<the key above> first):"
  grep -e '^Try:' -e '^       -d' <<<"$seeded" | sed 's/^Try: /  /; s/^       -d/         -d/'
  if [[ "$demo_traffic" == true ]]; then
    echo
    PULSEBOARD_DEMO_API_KEY="$demo_key" PULSEBOARD_DEMO_PROJECT_KEY="$demo_project" bash deploy/demo-traffic.sh start "$gateway"
  else
    # A generator from an earlier run may hold a key --rotate just replaced.
    bash deploy/demo-traffic.sh stop
  fi
fi
