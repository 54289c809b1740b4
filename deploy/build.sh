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
# The dashboard (packages/dashboard, Preact + Vite): its rule validator compiled from
# contracts' tile-rule schema, then the production bundle, which broadcast serves.
node_src packages/dashboard/scripts/write-rule-validator.ts
# Built aside and swapped in whole: a broadcast starting meanwhile (it reads the files once,
# at start) never finds half a build, e.g. while a test runs up.sh beside the dashboard's tests.
next=packages/dashboard/node_modules/.dist-next
(cd packages/dashboard && pnpm exec vite build --logLevel warn --outDir "$root/$next" --emptyOutDir)
rm -rf packages/dashboard/node_modules/.dist-old
if [[ -d packages/dashboard/dist ]]; then mv packages/dashboard/dist packages/dashboard/node_modules/.dist-old; fi
mv "$next" packages/dashboard/dist
rm -rf packages/dashboard/node_modules/.dist-old
node -e '
const { readdirSync, readFileSync } = require("node:fs");
const { gzipSync } = require("node:zlib");
const dir = "packages/dashboard/dist/assets/";
let raw = 0, gz = 0;
for (const f of readdirSync(dir)) { const b = readFileSync(dir + f); raw += b.length; gz += gzipSync(b, { level: 9 }).length; }
console.log(`dashboard bundle: ${(raw / 1024).toFixed(1)} kB, ${(gz / 1024).toFixed(1)} kB gzipped (budget 150 kB)`);
if (gz > 150 * 1024) { console.error("dashboard bundle over its 150 kB gzipped budget"); process.exit(1); }
'
