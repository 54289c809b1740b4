#!/usr/bin/env bash
# Compiles the services and the packages they run on to JavaScript (dist/ beside
# each src/, by tsc project references: every package's and service's own
# tsconfig.build.json, so a new one is built by having one), and copies the
# files under src/ that tsc does not emit (the limiter's Lua script) beside it.
# Production runs dist/; development and tests run src/ through tsx.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$root"
pnpm exec tsc -b packages/*/tsconfig.build.json services/*/tsconfig.build.json
while IFS= read -r -d '' asset; do
  target="${asset/\/src\//\/dist\/}"
  mkdir -p "$(dirname "$target")"
  cp "$asset" "$target"
done < <(find packages/*/src services/*/src -type f ! -name '*.ts' -print0)
# @pulseboard/client's bundle (one ES module for browsers and Node, esbuild): packages/client/dist/.
node -C @pulseboard/source --import tsx packages/client/src/build/write.ts
