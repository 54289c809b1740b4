#!/usr/bin/env bash
# Starts or stops the demo traffic generator (deploy/demo-traffic.ts) in the background.
# Usage: deploy/demo-traffic.sh start GATEWAY_URL   (PULSEBOARD_DEMO_API_KEY in the environment)
#        deploy/demo-traffic.sh stop
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
run_dir="$state_dir/run"
mkdir -p "$run_dir"
pid_file="$run_dir/demo-traffic.pid"

alive() {
  local pid
  pid="$(cat "$pid_file" 2>/dev/null)" || return 1
  [[ -n "$pid" ]] && grep -qa "deploy/demo-traffic.ts" "/proc/$pid/cmdline" 2>/dev/null
}

stop() {
  alive || { rm -f "$pid_file"; return 0; }
  local pid; pid="$(cat "$pid_file")"
  kill -TERM "$pid"
  for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$pid_file"
  echo "demo traffic stopped"
}

start() {
  local url=$1
  # A running one holds the previous API key (seed-demo.ts regenerates it): replaced.
  stop
  local log="$run_dir/demo-traffic.log"
  # The key stays in the environment, not argv, where any process list would show it.
  (cd "$root" && exec setsid node -C @pulseboard/source --import tsx deploy/demo-traffic.ts "$url" </dev/null >>"$log" 2>&1) &
  local pid=$!
  disown "$pid"
  echo "$pid" >"$pid_file"
  echo "demo traffic started (pid $pid, log $log; about 2 events/s to the demo project; stop with: bash deploy/demo-traffic.sh stop)"
}

case "${1:-}" in
  start) start "${2:?usage: $0 start GATEWAY_URL}" ;;
  stop) stop ;;
  *) echo "usage: $0 start GATEWAY_URL | stop" >&2; exit 2 ;;
esac
