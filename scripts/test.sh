#!/usr/bin/env bash
# npm test: everything CI does (typecheck, lint, unit and integration, build, browser tests).
# Fails when any step fails, and stops at the first failure it sees.
#
# Vitest runs its files in two workers, one a core on this 2-core machine (its default, cores - 1,
# would leave a core idle once the other steps are done), and the steps that need no browser run
# beside it: typecheck, lint and the build. Vitest's output is shown when it has finished. The
# browser tests need the build and both cores: they run last.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
logs=$(mktemp -d)
unit=""
cleanup() {
  # A failure elsewhere stops Vitest too (its own process group, started below).
  if [ -n "$unit" ] && kill -0 "$unit" 2>/dev/null; then kill -- "-$unit" 2>/dev/null || true; fi
  rm -rf "$logs"
}
trap cleanup EXIT

# timed NAME COMMAND...: runs the command, then says how long it took.
source scripts/timed.sh
step() {
  printf '\n== %s\n' "$1"
  timed "$@"
}

printf '\n== unit and integration: started beside typecheck, lint and build\n'
# The files that start the production server wait for the build (they run after it, below): its
# log, the crash test (scripts/crash-test.mjs, 3 rounds), and its stop and refused starts.
AFTER_BUILD=(tests/integration/server-log.test.ts tests/integration/observability.test.ts tests/integration/crash.test.ts tests/integration/shutdown.test.ts)
excludes=""
for file in "${AFTER_BUILD[@]}"; do excludes+=" --exclude $file"; done
setsid bash -c "$(declare -f timed); timed 'unit and integration' npx vitest run --maxWorkers=2$excludes" >"$logs/unit" 2>&1 &
unit=$!

step "typecheck" npx tsc
# Lint: ESLint (with the layer rules), Prettier, and no import loop among the app's and the server's
# modules (madge, configured under "madge" in package.json: the `~/` alias through tsconfig.json).
step "lint" bash -c "npx eslint --max-warnings=0 . && npx prettier --check . >/dev/null && echo \"Prettier: every file formatted\" && npx madge --circular --no-spinner app server"
step "build" npm run build

printf '\n== unit and integration\n'
unit_status=0
wait "$unit" || unit_status=$?
unit=""
cat "$logs/unit"
[ "$unit_status" -eq 0 ] || exit "$unit_status"

step "the production server: its log, crash safety, stop" env SHOP_AFTER_BUILD=1 npx vitest run "${AFTER_BUILD[@]}"
step "browser" bash -c "node scripts/ensure-chromium.mjs && npx playwright test"
printf '\n== npm test: everything passed in %ss\n' $((SECONDS - started))
