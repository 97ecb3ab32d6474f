#!/usr/bin/env bash
# npm run test:cluster: the shop on two app servers behind nginx over one PostgreSQL
# (ADR 0020). Inside one throwaway PostgreSQL 15 cluster (scripts/with-pg.sh), each step starting
# its own shop cluster on a fresh database there (scripts/cluster.mjs):
#   1. the cross-server tests (tests/cluster, their own Vitest config): A then B by their own ports;
#   2. the Playwright suite (tests/e2e) with E2E_TARGET=cluster: baseURL is nginx, round-robin.
# Needs root (PostgreSQL runs as the postgres user; postgresql-15 and nginx are installed with
# apt-get when missing). Reuses build/ unless it is missing or older than app/ (then builds once).
# Arguments go to Playwright (e.g. a spec file); CLUSTER_STEPS=vitest or =browser runs one step.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
node scripts/ensure-chromium.mjs
node --input-type=module -e '
import { ensureBuild } from "./scripts/cluster.mjs";
import { ensureDebianPackage } from "./scripts/throwaway.mjs";
ensureDebianPackage(process.env.NGINX ?? "/usr/sbin/nginx", "nginx");
ensureBuild();
'
steps=${CLUSTER_STEPS:-vitest,browser}
inner=$(cat <<'INNER'
set -euo pipefail
source scripts/timed.sh
steps=$1
shift
if [[ ,$steps, == *,vitest,* ]]; then
  printf '\n== cross-server tests (tests/cluster)\n'
  timed "cross-server tests" npx vitest run --config tests/cluster/vitest.config.ts
fi
if [[ ,$steps, == *,browser,* ]]; then
  printf '\n== browser tests on the cluster (nginx, two servers, PostgreSQL)\n'
  timed "browser tests on the cluster" env E2E_TARGET=cluster npx playwright test "$@"
fi
INNER
)
bash scripts/with-pg.sh bash -c "$inner" test-cluster "$steps" "$@"
printf '\n== npm run test:cluster: everything passed in %ss\n' $((SECONDS - started))
