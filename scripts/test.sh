#!/usr/bin/env bash
# npm test: everything CI does, in order. Stops at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$1"; }
step "typecheck" && npx tsc
step "lint" && npx eslint --max-warnings=0 .
step "unit and integration" && npx vitest run
step "build" && npx remix vite:build
step "browser" && node scripts/ensure-chromium.mjs && npx playwright test
