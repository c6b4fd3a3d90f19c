#!/usr/bin/env bash
# expect_abort.sh STATUS PATTERN COMMAND...: runs COMMAND (a launcher and its job) and passes when
# it exits with STATUS and its output matches the extended regular expression PATTERN (empty:
# any output; the launchers' own abort messages are not reliable, Open MPI's help system drops
# them at times).
set -uo pipefail
expected="$1" pattern="$2"
shift 2
output="$("$@" 2>&1)"
status=$?
printf '%s\n' "$output"
if [ "$status" -ne "$expected" ]; then
  echo "expect_abort: exit status $status, expected $expected"
  exit 1
fi
if ! grep -Eq -- "$pattern" <<<"$output"; then
  echo "expect_abort: no line matches '$pattern'"
  exit 1
fi
