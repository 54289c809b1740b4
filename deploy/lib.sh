# Shared by the deploy scripts: the repo root, the state dir, and pnpm through corepack.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
state_dir="${PULSEBOARD_STATE_DIR:-$HOME/.cache/pulseboard}"
mkdir -p "$state_dir"
# corepack's signature check fails against some registries mirrors; the lockfile pins pnpm itself.
export COREPACK_INTEGRITY_KEYS="${COREPACK_INTEGRITY_KEYS:-0}"
export COREPACK_ENABLE_DOWNLOAD_PROMPT=0

pnpm() { corepack pnpm "$@"; }

# Installs exactly the locked dependencies; a no-op when node_modules is current.
install_deps() {
  (cd "$root" && pnpm install --frozen-lockfile --reporter=append-only) | grep -vE '^(Progress|Packages:|\+{3,})' || true
  [[ -d "$root/node_modules/.pnpm" ]] || { echo "dependency install failed" >&2; return 1; }
}
