#!/bin/bash
# Debian's redis-server binds to loopback and runs protected by default; in a
# container it must answer on the container's network, as the official image does.
set -euo pipefail
if [[ "${1:-}" == redis-server ]]; then
  shift
  exec redis-server --bind '* -::*' --protected-mode no --save '' --appendonly no --dir /data "$@"
fi
exec "$@"
