#!/usr/bin/env bash
# Brings up everything Pulseboard needs locally: Postgres, Redis, Kafka.
# Usage: deploy/infra.sh up|down
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/lib.sh"
DATABASE_URL="${DATABASE_URL:-$DEFAULT_DATABASE_URL}"
REDIS_URL="${REDIS_URL:-$DEFAULT_REDIS_URL}"

# postgres[ql]://[user[:pass]@]host[:port]/db[?params]
[[ "$DATABASE_URL" =~ ^postgres(ql)?://([^@/]*@)?([^:/?]+)(:([0-9]+))?/([^?]+) ]] ||
  { echo "cannot parse DATABASE_URL" >&2; exit 2; }
pg_auth="${BASH_REMATCH[2]}" pg_host="${BASH_REMATCH[3]}" pg_port="${BASH_REMATCH[5]:-5432}" pg_db="${BASH_REMATCH[6]}"
# redis[s]://[user:pass@]host[:port][/db]
[[ "$REDIS_URL" =~ ^rediss?://([^@/]*@)?([^:/?]+)(:([0-9]+))? ]] ||
  { echo "cannot parse REDIS_URL" >&2; exit 2; }
redis_host="${BASH_REMATCH[2]}" redis_port="${BASH_REMATCH[4]:-6379}"

is_local() { [[ "$1" == 127.0.0.1 || "$1" == localhost || "$1" == "::1" ]]; }
# Fallback when the client tools are not installed.
port_open() { timeout 1 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null; }

pg_ok() {
  if command -v pg_isready >/dev/null; then pg_isready -q -h "$pg_host" -p "$pg_port"
  else port_open "$pg_host" "$pg_port"; fi
}
redis_ok() {
  if command -v redis-cli >/dev/null; then [[ "$(redis-cli -u "$REDIS_URL" ping 2>/dev/null)" == PONG ]]
  else port_open "$redis_host" "$redis_port"; fi
}

# wait_for NAME CHECK: up to 30 s, since a cold Postgres may replay WAL first.
wait_for() {
  for _ in $(seq 1 120); do "$2" && return 0; sleep 0.25; done
  echo "$1 did not come up" >&2; return 1
}

up() {
  if ! pg_ok; then
    is_local "$pg_host" || { echo "postgres at $pg_host:$pg_port is not answering" >&2; return 1; }
    echo "starting postgres..."
    # The workload's settings (deploy/postgres/pulseboard.conf), read at this start; a
    # Postgres someone else started keeps its own.
    # shellcheck disable=SC2046
    confd="/etc/postgresql/$(ls /etc/postgresql)/main/conf.d"
    if [[ -d "$confd" ]]; then cp "$here/postgres/pulseboard.conf" "$confd/pulseboard.conf"; fi
    # --skip-systemctl-redirect: no systemd here (containers, CI).
    # shellcheck disable=SC2046
    pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start
    wait_for postgres pg_ok
  fi
  if ! redis_ok; then
    is_local "$redis_host" || { echo "redis at $redis_host:$redis_port is not answering" >&2; return 1; }
    echo "starting redis..."
    # No persistence: it is a cache/scratch store for dev and CI.
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$redis_port" --save "" \
      --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
    wait_for redis redis_ok
  fi
  # Talk to the always-present "postgres" db to create ours; keep the URL's credentials.
  local admin="postgres://${pg_auth}${pg_host}:${pg_port}/postgres"
  if [[ "$(psql "$admin" -tAc "SELECT 1 FROM pg_database WHERE datname = '${pg_db//\'/\'\'}'")" != 1 ]]; then
    psql "$admin" -q -c "CREATE DATABASE \"${pg_db//\"/\"\"}\""
    echo "created database $pg_db"
  fi
  echo "postgres ok ($pg_host:$pg_port/$pg_db), redis ok ($redis_host:$redis_port)"
  # Like Postgres and Redis: a broker already answering at KAFKA_BROKERS that this state dir did
  # not start (another stack's, a container) is used as it is, and down leaves it running.
  local broker="${KAFKA_BROKERS:-}"
  broker="${broker%%,*}"
  if [[ -n "$broker" ]] && ! "$here/kafka.sh" status >/dev/null 2>&1 && port_open "${broker%:*}" "${broker##*:}"; then
    echo "kafka ok ($broker, already running: not this state dir's to start or stop)"
    return 0
  fi
  "$here/kafka.sh" start
}

case "${1:-}" in
  up) up ;;
  # Postgres and Redis are the machine's shared services: only Kafka is ours to stop.
  down) "$here/kafka.sh" stop ;;
  *) echo "usage: $0 up|down" >&2; exit 2 ;;
esac
