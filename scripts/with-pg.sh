#!/usr/bin/env bash
# scripts/with-pg.sh COMMAND...: runs COMMAND with TEST_PG_URL naming the admin connection of a
# throwaway PostgreSQL 15 cluster (loopback only), stopped and removed afterwards. Needs root (the
# cluster runs as the postgres user); installs postgresql-15 with apt-get when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
if [ ! -x "$PGBIN/initdb" ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15 >/dev/null
  else
    echo "PostgreSQL 15 server binaries not found in $PGBIN (apt-get install postgresql-15)" >&2
    exit 1
  fi
fi
work=$(mktemp -d /tmp/shop-pg-XXXXXX)
chown postgres "$work"
port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
runuser -u postgres -- "$PGBIN/initdb" -D "$work/data" -U postgres --auth=trust >/dev/null
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/data" -o "-c listen_addresses=127.0.0.1 -p $port -k $work" -l "$work/log" -w start >/dev/null
trap 'runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
echo "PostgreSQL on 127.0.0.1:$port"
TEST_PG_URL="postgresql://postgres@127.0.0.1:$port/postgres" "$@"
