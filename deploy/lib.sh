# Shared by the deploy scripts: the repo root, the state dir, and the pinned pnpm through corepack.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
state_dir="${PULSEBOARD_STATE_DIR:-$HOME/.cache/pulseboard}"
# The scripts' defaults for the backing services (the services' own defaults,
# the same addresses, are in packages/config/src/env.ts).
DEFAULT_DATABASE_URL=postgres://postgres@127.0.0.1:5432/pulseboard
DEFAULT_REDIS_URL=redis://127.0.0.1:6379
mkdir -p "$state_dir"
# corepack's signature check fails against some registries mirrors; the lockfile pins pnpm itself.
export COREPACK_INTEGRITY_KEYS="${COREPACK_INTEGRITY_KEYS:-0}"
export COREPACK_ENABLE_DOWNLOAD_PROMPT=0

# pnpm: always the version package.json pins, through corepack's shims in the
# state dir, first on PATH and exported, so that every command these scripts run
# (under timeout, xargs, exec or a child script) finds that one and never a global
# pnpm, whatever its version. The image builds take the same path.
tool_bin="$state_dir/bin"
if [[ ! -e "$tool_bin/pnpm" ]]; then
  mkdir -p "$tool_bin"
  corepack enable --install-directory "$tool_bin" pnpm
fi
# Outside a directory whose package.json pins a version, corepack's own known version, not npm's latest.
export COREPACK_DEFAULT_TO_LATEST=0
export PATH="$tool_bin:$PATH"
[[ "$(type -P pnpm)" == "$tool_bin/pnpm" ]] || { echo "lib.sh: pnpm did not resolve to $tool_bin/pnpm" >&2; exit 1; }

# Runs the workspace's TypeScript sources: tsx, with each workspace package
# resolved to its src/ (the export condition); production runs dist/ instead.
node_src() { node -C @pulseboard/source --import tsx "$@"; }

# Installs exactly the locked dependencies; a no-op when node_modules is current.
install_deps() {
  (cd "$root" && pnpm install --frozen-lockfile --reporter=append-only) | grep -vE '^(Progress|Packages:|\+{3,})' || true
  [[ -d "$root/node_modules/.pnpm" ]] || { echo "dependency install failed" >&2; return 1; }
}

# Runs vitest with an upper bound on its wall time: a test that spins inside one
# tick (a generator that never returns) is out of reach of vitest's own
# timeouts, and would otherwise eat CI's whole budget without a word.
bounded_vitest() {
  local limit=${PULSEBOARD_SUITE_TIMEOUT:-40m} rc=0
  timeout --signal=TERM --kill-after=30s "$limit" pnpm exec vitest "$@" || rc=$?
  if [[ $rc -eq 124 || $rc -eq 137 ]]; then
    echo "vitest did not finish within $limit (PULSEBOARD_SUITE_TIMEOUT): a test file hung; the files without a result line above are the suspects" >&2
  fi
  return $rc
}
