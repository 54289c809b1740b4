#!/usr/bin/env bash
# The compose smoke test: builds and starts docker-compose.yml (plus a webhook
# receiver, tests/compose/docker-compose.smoke.yml), waits until every service
# is healthy, sends one event through every stage (tests/compose/smoke.ts),
# and brings the stack down leaving no container, network or volume behind.
# Images as docker-compose.yml reads them (KAFKA_IMAGE, ...; CI sets the local
# ones of deploy/images.sh). Works with Compose v2 and docker-compose 1.29.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../deploy/lib.sh"
cd "$root"

project=pulseboard-smoke
files=(-f docker-compose.yml -f tests/compose/docker-compose.smoke.yml)
if docker compose version >/dev/null 2>&1; then compose=(docker compose); else compose=(docker-compose); fi
compose() { "${compose[@]}" -p "$project" "${files[@]}" "$@"; }
# Ports of their own, so a stack started by deploy/up.sh may keep running.
export GATEWAY_HOST_PORT=18080 BROADCAST_HOST_PORT=18081 KAFKA_HOST_PORT=19093 RECEIVER_HOST_PORT=18099
# Strong secrets of this run's own: the services refuse missing or weak ones.
ADMIN_TOKEN="$(node -e "console.log(require('node:crypto').randomBytes(32).toString('base64url'))")"
SECRETS_KEY="$(node -e "console.log(require('node:crypto').randomBytes(32).toString('base64url'))")"
INTERNAL_PROXY_SECRET="$(node -e "console.log(require('node:crypto').randomBytes(32).toString('base64url'))")"
export ADMIN_TOKEN SECRETS_KEY INTERNAL_PROXY_SECRET

leftovers() {
  { docker ps -aq --filter "label=com.docker.compose.project=$project"
    docker network ls -q --filter "label=com.docker.compose.project=$project"
    docker volume ls -q --filter "label=com.docker.compose.project=$project"; } | wc -l
}
down() { compose down --volumes --remove-orphans --timeout 10 >/dev/null 2>&1 || true; }
trap down EXIT
down

echo "compose smoke: ${compose[*]} ($("${compose[@]}" version --short 2>/dev/null || "${compose[@]}" version | head -n1)), images: kafka ${KAFKA_IMAGE:-apache/kafka:4.4.0}, postgres ${POSTGRES_IMAGE:-postgres:15}, redis ${REDIS_IMAGE:-redis:7}, node ${NODE_IMAGE:-node:24-bookworm-slim}"
t0=$SECONDS
compose build --quiet 2> >(grep -Ev 'DEPRECATED: The legacy builder|Install the buildx|docs.docker.com/go/buildx|^ *$' >&2)
echo "compose smoke: images built in $((SECONDS - t0)) s"

t1=$SECONDS
compose up -d --no-build --quiet-pull 2>&1 | grep -v -e '^Creating' -e '^Starting' || true
# Ready: every long-running container healthy (its health check), the migrations exited 0.
ready() {
  local id state health
  for id in $(compose ps -q); do
    read -r state health < <(docker inspect --format '{{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' "$id")
    name=$(docker inspect --format '{{index .Config.Labels "com.docker.compose.service"}}' "$id")
    if [[ "$name" == migrate ]]; then
      [[ "$state" == exited && "$(docker inspect --format '{{.State.ExitCode}}' "$id")" == 0 ]] || return 1
    elif [[ "$health" != healthy && ! ( "$health" == none && "$state" == running ) ]]; then
      return 1
    fi
  done
  [[ "$(compose ps -q | wc -l)" -ge 10 ]]
}
for _ in $(seq 1 180); do ready && break; sleep 1; done
if ! ready; then
  echo "compose smoke: the stack did not become ready:" >&2
  compose ps >&2
  compose logs --tail 30 >&2
  exit 1
fi
echo "compose smoke: stack ready in $((SECONDS - t1)) s (start to every service healthy)"

GATEWAY_URL="http://127.0.0.1:$GATEWAY_HOST_PORT" BROADCAST_URL="http://127.0.0.1:$BROADCAST_HOST_PORT" \
  RECEIVER_URL="http://127.0.0.1:$RECEIVER_HOST_PORT" node_src tests/compose/smoke.ts || {
  compose logs --tail 40 >&2
  exit 1
}

down
trap - EXIT
left=$(leftovers)
[[ "$left" == 0 ]] || { echo "compose smoke: $left containers, networks or volumes left behind" >&2; exit 1; }
echo "compose smoke: passed in $((SECONDS - t0)) s; nothing left behind"
