#!/usr/bin/env bash
# expect_abort.sh STATUS COMMAND...: runs COMMAND (a launcher and its job) and passes when it exits
# with STATUS. The output is shown, not checked: launchers drop an aborting rank's last lines at
# times (MPICH's hydra its whole stderr, Open MPI its own abort message).
set -uo pipefail
expected="$1"
shift
"$@" 2>&1
status=$?
if [ "$status" -ne "$expected" ]; then
  echo "expect_abort: exit status $status, expected $expected"
  exit 1
fi
