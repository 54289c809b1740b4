#!/bin/bash
# The official image's contract, in short: the first start initialises PGDATA
# (superuser POSTGRES_USER with POSTGRES_PASSWORD, database POSTGRES_DB) on a
# server that listens on no TCP port, so nobody connects before it is ready.
set -euo pipefail
if [[ "${1:-}" == postgres && ! -s "$PGDATA/PG_VERSION" ]]; then
  user="${POSTGRES_USER:-postgres}" db="${POSTGRES_DB:-${POSTGRES_USER:-postgres}}"
  auth="${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}"
  if [[ -z "${POSTGRES_PASSWORD:-}" && "$auth" != trust ]]; then
    echo "error: set POSTGRES_PASSWORD (or POSTGRES_HOST_AUTH_METHOD=trust)" >&2
    exit 1
  fi
  initdb --username="$user" --pwfile=<(printf '%s\n' "${POSTGRES_PASSWORD:-}") --auth-local=trust --auth-host="$auth" --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  printf "listen_addresses = '*'\n" >>"$PGDATA/postgresql.conf"
  printf 'host all all all %s\n' "$auth" >>"$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [[ "$db" != postgres ]]; then psql -v ON_ERROR_STOP=1 --username "$user" --dbname postgres -c "CREATE DATABASE \"$db\"" >/dev/null; fi
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "PostgreSQL init process complete; ready for start up."
fi
exec "$@"
