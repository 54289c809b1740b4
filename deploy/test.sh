#!/usr/bin/env bash
# Runs every test: typecheck, unit tests, and integration tests against a real
# Kafka broker, Postgres and Redis (started here if they are not running).
# Safe to run again; installs what it needs.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$root"
started=$(date +%s)

install_deps
# The integration tests' global setup also does this; doing it first keeps its output readable.
DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/pulseboard_test}" bash deploy/infra.sh up
pnpm --silent typecheck
pnpm exec vitest run --reporter=verbose
echo "all tests passed in $(( $(date +%s) - started )) s"
