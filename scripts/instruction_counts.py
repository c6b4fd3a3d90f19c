#!/usr/bin/env python3
"""scomm's own instructions per call, from callgrind profiles of scomm-mpibench (instructions.sh).

    instruction_counts.py creation PROFILE        create + free of split-halves' local creation
    instruction_counts.py messages PROFILE...     SCOMM_Send ... SCOMM_Waitany of p2p-overhead
    instruction_counts.py collective OP PROFILE...  SCOMM_<OP>, collected alone (--toggle-collect)

A call's own instructions are its inclusive count less that of the MPI call it makes (the PMPI_
call's cost from callers in libscomm), per call; SCOMM_Waitall's, SCOMM_Waitsome's and
SCOMM_Waitany's per request completed. A collective's are those executed in libscomm and libstdc++ while in SCOMM_<OP> (MPI's, and the C
library's, left out), per call of SCOMM_<OP> (counted at its callers).
"""
import re
import subprocess
import sys

WINDOW = 64  # requests per window that p2p-overhead completes by SCOMM_Waitall (its kWindow)


def annotate_tree(profile, tree):
    """callgrind_annotate's inclusive call tree (`caller` or `calling`) of every function."""
    return subprocess.run(["callgrind_annotate", "--threshold=100", f"--tree={tree}",
                           "--inclusive=yes", profile], capture_output=True, text=True,
                          check=True).stdout


def annotate(profile):
    """Function blocks of callgrind_annotate's caller tree: name -> (inclusive, calls, callers)."""
    blocks, callers = {}, []
    for line in annotate_tree(profile, "caller").splitlines():
        if not line.strip():
            callers = []
            continue
        cost = re.match(r"\s*([\d,]+)", line)
        if not cost:
            continue
        value = int(cost.group(1).replace(",", ""))
        if re.search(r"\) *< ", line):  # "... (1.2%)  < caller (12x) [library]"
            count = re.search(r"\(([\d,]+)x\)", line)
            callers.append((value, int(count.group(1).replace(",", "")) if count else 0, line))
        elif "*  " in line:
            name = re.search(r"\*  \S*?:([^\s\[]+)", line)
            if name:
                blocks[name.group(1)] = (value, sum(c[1] for c in callers), list(callers))
    return blocks


def mpi_from_scomm(blocks, mpi):
    """Instructions of `mpi` (a PMPI_ function) called from libscomm."""
    return sum(cost for cost, _, line in blocks[mpi][2] if "libscomm" in line)


def creation(profile):
    """SCOMM_Comm_create_range and SCOMM_Comm_free as split_halves calls them in its loop of
    200,000 local creations (the loop is inlined there; its own few instructions are left out)."""
    calls, in_split_halves = {}, False
    for line in annotate_tree(profile, "calling").splitlines():
        if "*  " in line:
            in_split_halves = "scomm::bench::split_halves(" in line and "lambda" not in line
            continue
        called = re.search(r">\s+\S*?:(SCOMM_Comm_create_range|SCOMM_Comm_free) \(([\d,]+)x\)", line)
        if in_split_halves and called:
            calls[called.group(1)] = (int(line.split()[0].replace(",", "")),
                                      int(called.group(2).replace(",", "")))
    if "SCOMM_Comm_create_range" not in calls or "SCOMM_Comm_free" not in calls:
        sys.exit("no local creation found in " + profile)
    creations = calls["SCOMM_Comm_create_range"][1]
    per_call = sum(total / count for total, count in calls.values())
    print(f"create + free: {per_call:.0f} instructions ({creations:,} in a row)")


def messages(profiles):
    for rank, profile in enumerate(sorted(profiles)):
        blocks = annotate(profile)
        requests = 0
        for call in ("Send", "Recv", "Isend", "Irecv"):
            name = "SCOMM_" + call
            if name not in blocks:
                continue
            inclusive, calls, _ = blocks[name]
            if call.startswith("I"):
                requests += calls
            own = (inclusive - mpi_from_scomm(blocks, "PMPI_" + call)) / calls
            print(f"rank {rank}: {name} {own:.0f} own instructions per call")
        # Each SCOMM_Waitall completes one window of WINDOW requests; a window completed by
        # SCOMM_Waitany takes one call per request and one that finds none active; SCOMM_Waitsome
        # completes the rest.
        inclusive, calls, _ = blocks["SCOMM_Waitall"]
        own = inclusive - mpi_from_scomm(blocks, "PMPI_Waitall")
        print(f"rank {rank}: SCOMM_Waitall {own / (calls * WINDOW):.0f} own instructions per request")
        requests -= calls * WINDOW
        if "SCOMM_Waitany" in blocks:
            inclusive, calls, _ = blocks["SCOMM_Waitany"]
            completed = calls * WINDOW // (WINDOW + 1)
            own = inclusive - mpi_from_scomm(blocks, "PMPI_Test")
            print(f"rank {rank}: SCOMM_Waitany {own / completed:.0f} own instructions per request")
            requests -= completed
        if "SCOMM_Waitsome" in blocks and requests > 0:
            own = blocks["SCOMM_Waitsome"][0] - mpi_from_scomm(blocks, "PMPI_Waitsome")
            print(f"rank {rank}: SCOMM_Waitsome {own / requests:.0f} own instructions per request")


def own_instructions(profile):
    """Exclusive instructions in libscomm and libstdc++ of a profile."""
    out = subprocess.run(["callgrind_annotate", "--threshold=100", profile],
                         capture_output=True, text=True, check=True).stdout
    own = 0
    for line in out.splitlines():
        cost = re.match(r"\s*([\d,]+) .*\[[^\]]*(libscomm|libstdc\+\+)[^\]]*\]\s*$", line)
        if cost:
            own += int(cost.group(1).replace(",", ""))
    return own


def collective(op, profiles):
    for rank, profile in enumerate(sorted(profiles)):
        calls = annotate(profile)["SCOMM_" + op][1]
        print(f"rank {rank}: SCOMM_{op} {own_instructions(profile) / max(calls, 1):.0f} "
              "own instructions per call")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "creation":
        creation(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "messages":
        messages(sys.argv[2:])
    elif len(sys.argv) >= 4 and sys.argv[1] == "collective":
        collective(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)
