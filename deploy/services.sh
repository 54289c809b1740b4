#!/usr/bin/env bash
# Runs Pulseboard's services, compiled (deploy/build.sh), as background processes (dev and single-host use;
# the Helm chart for Kubernetes is deploy/helm/pulseboard). Usage: deploy/services.sh start|stop|status
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The one list of services (also read by migrations and the test kit).
mapfile -t SERVICES < <(grep -v -e '^#' -e '^[[:space:]]*$' "$root/deploy/services.txt")
run_dir="$state_dir/run"
mkdir -p "$run_dir"

alive() {
  local pid
  pid="$(cat "$run_dir/$1.pid" 2>/dev/null)" || return 1
  [[ -n "$pid" ]] && grep -qa "services/$1/dist/main.js" "/proc/$pid/cmdline" 2>/dev/null
}

start() {
  # Production's way: the compiled JavaScript (incremental: seconds when nothing changed).
  bash "$root/deploy/build.sh"
  for service in "${SERVICES[@]}"; do
    if alive "$service"; then echo "$service already running (pid $(cat "$run_dir/$service.pid"))"; continue; fi
    # setsid: the service outlives this shell and a Ctrl-C in it.
    local log="$run_dir/$service.log" pid
    : >>"$log"
    local from=$(($(wc -l <"$log") + 1))
    (cd "$root" && exec setsid node "services/$service/dist/main.js" </dev/null >>"$log" 2>&1) &
    pid=$!
    disown "$pid"
    echo "$pid" >"$run_dir/$service.pid"
    # Wait for the service's own "started" log event, or its death.
    for _ in $(seq 1 120); do
      grep -q "\"event\":\"${service//-/_}_started\"" < <(tail -n "+$from" "$log") && break
      kill -0 "$pid" 2>/dev/null || { echo "$service failed to start:" >&2; tail -n 30 "$log" >&2; return 1; }
      sleep 0.5
    done
    echo "$service started (pid $(cat "$run_dir/$service.pid"), log $run_dir/$service.log)"
  done
}

stop() {
  for service in "${SERVICES[@]}"; do
    alive "$service" || { rm -f "$run_dir/$service.pid"; continue; }
    local pid; pid="$(cat "$run_dir/$service.pid")"
    kill -TERM "$pid"
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$pid" 2>/dev/null || true
    rm -f "$run_dir/$service.pid"
    echo "$service stopped"
  done
}

status() {
  local rc=0
  for service in "${SERVICES[@]}"; do
    if alive "$service"; then echo "$service running (pid $(cat "$run_dir/$service.pid"))"; else echo "$service stopped"; rc=1; fi
  done
  return $rc
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
