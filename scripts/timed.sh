# Sourced by scripts/test.sh and scripts/test-cluster.sh.
# timed NAME COMMAND...: runs the command, then says how long it took.
timed() {
  local name=$1 start=$SECONDS
  shift
  if "$@"; then
    printf '== %s: done in %ss\n' "$name" $((SECONDS - start))
  else
    local status=$?
    printf '== %s: FAILED after %ss\n' "$name" $((SECONDS - start))
    return $status
  fi
}
