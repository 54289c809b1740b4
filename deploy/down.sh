#!/usr/bin/env bash
# Stops the demo traffic, the services and the Kafka broker that deploy/up.sh started.
# The machine's own Postgres and Redis are left running.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/demo-traffic.sh" stop
bash "$here/services.sh" stop
bash "$here/infra.sh" down
