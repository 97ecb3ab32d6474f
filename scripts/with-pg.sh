#!/usr/bin/env bash
# scripts/with-pg.sh COMMAND...: runs COMMAND with TEST_PG_URL naming the admin connection of a
# throwaway PostgreSQL 15 cluster (loopback only), stopped and removed afterwards. Needs root (the
# cluster runs as the postgres user); installs postgresql-15 with apt-get when missing. The work is
# scripts/with-pg.mjs (scripts/throwaway.mjs starts the cluster, as npm run cluster does).
set -euo pipefail
cd "$(dirname "$0")/.."
exec node scripts/with-pg.mjs "$@"
