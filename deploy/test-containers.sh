#!/usr/bin/env bash
# The containers path of the tests (CI runs it after deploy/test.sh): a Docker
# engine (installed and started when missing), the local images of
# deploy/images.sh unless KAFKA_IMAGE / POSTGRES_IMAGE / REDIS_IMAGE /
# NODE_IMAGE are already set, the compose smoke test (tests/compose/smoke.sh),
# then the integration suite against Kafka, Postgres and Redis containers that
# testcontainers starts (TEST_INFRA=containers), less the files whose subject
# does not depend on where the infrastructure runs (INFRA_NEUTRAL in vitest.config.ts).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$root"
started=$SECONDS

install_deps
# The operator-signal tests run on this path too (promtool, a local Prometheus scraping the services).
bash deploy/prometheus.sh
bash deploy/docker-engine.sh up
t=$SECONDS
bash deploy/images.sh
echo "local images: $((SECONDS - t)) s"
# Images chosen by the caller win; the rest are the local ones.
while read -r _ assignment; do
  name=${assignment%%=*}
  [[ -n "${!name:-}" ]] || export "${assignment?}"
done < <(bash deploy/images.sh --env)

t=$SECONDS
bash tests/compose/smoke.sh
echo "compose smoke: $((SECONDS - t)) s"

# The global setup loads workspace packages through their compiled entry (dist/): deploy/test.sh
# builds them first, and so does this path, which a fresh clone may run alone (it failed with
# "Failed to resolve entry for package @pulseboard/db" without). Incremental after deploy/test.sh.
bash deploy/build.sh

t=$SECONDS
# Ryuk (testcontainers' reaper) is an image from Docker Hub; the suite's teardown stops its containers itself.
TEST_INFRA=containers TESTCONTAINERS_RYUK_DISABLED="${TESTCONTAINERS_RYUK_DISABLED:-true}" \
  bounded_vitest run --project integration --reporter=verbose
echo "integration suite on testcontainers: $((SECONDS - t)) s"
echo "containers path passed in $((SECONDS - started)) s"
