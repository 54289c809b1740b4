#!/usr/bin/env bash
# Runs every test: typecheck, unit tests, and integration tests against a real
# Kafka broker, Postgres and Redis (started here if they are not running).
# Safe to run again; installs what it needs.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$root"
started=$(date +%s)

install_deps
# The browser tests drive Debian's Chromium (never a downloaded browser).
if [[ -z "${CHROMIUM_PATH:-}" && ! -x /usr/bin/chromium ]]; then
  echo "installing Debian's chromium for the browser tests..."
  sudo_if_needed() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }
  sudo_if_needed apt-get install -y -qq chromium >/dev/null || { sudo_if_needed apt-get update -qq && sudo_if_needed apt-get install -y -qq chromium >/dev/null; }
fi
# promtool checks every service's /metrics; a real Prometheus scrapes the stack (tests/ops).
bash deploy/prometheus.sh
# The integration tests' global setup also does this; doing it first keeps its output readable.
DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/pulseboard_test}" bash deploy/infra.sh up
pnpm --silent typecheck
# eslint (type-aware: promises nobody awaits or catches) and prettier --check, zero warnings.
pnpm --silent lint
# The committed OpenAPI document lints clean. Unit tests check that it and docs/asyncapi.json
# are what the code generates, validate the AsyncAPI document, and compare each topic's
# schema with its released snapshot (docs/topic-schemas/).
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true pnpm exec redocly lint --format=summary docs/openapi.json
# The AsyncAPI document (Kafka topics and the WebSocket protocol) validates with the AsyncAPI CLI;
# its anonymous usage metrics stay off (a config file saying so, read instead of ~/.asyncapi-analytics).
ASYNCAPI_METRICS_CONFIG_PATH="$root/deploy/asyncapi/analytics.json" SUPPRESS_NO_CONFIG_WARNING=1 pnpm exec asyncapi validate docs/asyncapi.json
# The compiled services (dist/) that production runs; tests/e2e/compiled runs them.
bash deploy/build.sh
bounded_vitest run --reporter=verbose
echo "all tests passed in $(( $(date +%s) - started )) s"
