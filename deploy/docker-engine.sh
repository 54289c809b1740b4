#!/usr/bin/env bash
# A Docker engine for the containers path (CI, and machines without one
# running): installs Debian's docker.io (and docker-compose 1.29, debootstrap)
# when missing and starts dockerd when it is not answering. Without iptables:
# published ports are served by docker-proxy, containers reach no outside
# network (image builds use --network host).
# Usage: deploy/docker-engine.sh up
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

install() {
  local missing=()
  command -v dockerd >/dev/null || missing+=(docker.io)
  command -v docker-compose >/dev/null || docker compose version >/dev/null 2>&1 || missing+=(docker-compose)
  command -v debootstrap >/dev/null || missing+=(debootstrap)
  ((${#missing[@]} == 0)) && return 0
  echo "installing ${missing[*]} from Debian..."
  as_root apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 ||
    { as_root apt-get update -qq && as_root apt-get install -y -qq "${missing[@]}" >/dev/null; }
}

up() {
  install
  docker info >/dev/null 2>&1 && return 0
  echo "starting dockerd..."
  as_root bash -c "setsid dockerd --iptables=false --ip-masq=false </dev/null >>'$state_dir/dockerd.log' 2>&1 &"
  for _ in $(seq 1 120); do docker info >/dev/null 2>&1 && return 0; sleep 0.25; done
  echo "dockerd did not come up; its log:" >&2
  tail -n 30 "$state_dir/dockerd.log" >&2
  return 1
}

case "${1:-}" in
  up) up ;;
  *) echo "usage: $0 up" >&2; exit 2 ;;
esac
