#!/usr/bin/env bash
# Makes sure Debian's `prometheus` and `promtool` are installed (the operator-signal tests
# check /metrics with promtool and scrape the local stack with a real Prometheus). The
# package's own system service is left stopped and disabled: the tests start their own.
set -euo pipefail
if command -v prometheus >/dev/null && command -v promtool >/dev/null; then exit 0; fi
as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }
echo "installing Debian's prometheus (prometheus, promtool) for the operator-signal tests..."
install() { DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends prometheus >/dev/null; }
install || { as_root apt-get update -qq && install; }
if command -v systemctl >/dev/null && [[ -d /run/systemd/system ]]; then
  as_root systemctl disable --now prometheus >/dev/null 2>&1 || true
fi
