#!/usr/bin/env bash
# Runs the integration tests against a throwaway PostgreSQL 15 cluster (scripts/with-pg.sh), to
# prove the same code runs on PostgreSQL. Needs root (the cluster runs as the postgres user).
# Arguments name test files to run instead of all of tests/integration (e.g. the full fuzz run:
# FUZZ_RUNS=1000 bash scripts/test-pg.sh tests/integration/fuzz.test.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/with-pg.sh npx vitest run "${@:-tests/integration}"
