#!/usr/bin/env python3
"""Runs every MPI test of a build at one process count with each rank under valgrind's memcheck,
one program at a time, and says which are clean.

usage: valgrind_mpi_tests.py [--skip=REGEX] BUILD_DIR NP SUPPRESSIONS...

The commands are ctest's own (its JSON listing), so arguments such as a test's --gtest_filter stay
as the tests define them; valgrind goes between mpirun's arguments and the program. A program is
clean when it passes and memcheck reports nothing (definite leaks included) beyond the
suppressions. Logs: BUILD_DIR/valgrind-mpi-NAME.log. Exit status 1 when any program is not clean.
--skip leaves out the tests whose names match REGEX (searched, not matched whole).
"""
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

TIMEOUT_S = 600  # per program; ranks run some 20-50 times slower under memcheck


def mpi_tests(build: Path, np: int):
    listing = subprocess.run(
        ["ctest", "--test-dir", str(build), "--show-only=json-v1", "-L", "mpi"],
        check=True, capture_output=True, text=True).stdout
    for test in json.loads(listing)["tests"]:
        if test["name"].endswith(f".np{np}"):
            env = next((p["value"] for p in test.get("properties", [])
                        if p["name"] == "ENVIRONMENT"), [])
            yield test["name"], test["command"], dict(e.split("=", 1) for e in env)


def under_valgrind(command, suppressions):
    # mpirun [options] -np N PROGRAM ARGS...: the program follows the process count.
    program = command.index("-np") + 2
    memcheck = ["valgrind", "-q", "--error-exitcode=1", "--leak-check=full",
                "--errors-for-leak-kinds=definite", "--num-callers=50"]
    memcheck += [f"--suppressions={s}" for s in suppressions]
    return command[:program] + memcheck + command[program:]


def run(command, env, log: Path):
    with open(log, "w") as out:
        try:
            return subprocess.run(command, stdout=out, stderr=subprocess.STDOUT,
                                  env={**os.environ, **env}, timeout=TIMEOUT_S).returncode
        except subprocess.TimeoutExpired:
            return "timeout"


def main():
    args = sys.argv[1:]
    skip = None
    if args and args[0].startswith("--skip="):
        skip = re.compile(args.pop(0)[len("--skip="):])
    build, np, suppressions = Path(args[0]), int(args[1]), args[2:]
    tests = [t for t in mpi_tests(build, np) if not (skip and skip.search(t[0]))]
    if not tests:
        sys.exit(f"no MPI tests at {np} processes in {build}")
    clean = True
    for name, command, env in tests:
        log = build / f"valgrind-mpi-{name}.log"
        started = time.monotonic()
        rc = run(under_valgrind(command, suppressions), env, log)
        if rc == 0:
            print(f"valgrind {name}: clean ({time.monotonic() - started:.0f} s)", flush=True)
            continue
        clean = False
        print(f"valgrind {name}: exit {rc}; the end of {log}:")
        print("".join(log.read_text(errors="replace").splitlines(keepends=True)[-40:]), flush=True)
    sys.exit(0 if clean else 1)


if __name__ == "__main__":
    main()
