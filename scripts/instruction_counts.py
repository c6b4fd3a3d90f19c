#!/usr/bin/env python3
"""scomm's own instructions per call, from callgrind profiles of scomm-mpibench (instructions.sh).

    instruction_counts.py creation PROFILE        create + free of split-halves' local creation
    instruction_counts.py messages PROFILE...     SCOMM_Send ... SCOMM_Waitall of p2p-overhead

A call's own instructions are its inclusive count less that of the MPI call it makes (the PMPI_
call's cost from callers in libscomm), per call; SCOMM_Waitall's per request completed.
"""
import re
import subprocess
import sys


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
    for line in annotate_tree(profile, "calling").splitlines():
        if "split_halves" in line and "lambda()#2" in line and "(1,000x)" in line:
            print(f"create + free: {int(line.split()[0].replace(',', '')) / 1000:.0f} instructions")
            return
    sys.exit("no local creation found in " + profile)


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
        own = blocks["SCOMM_Waitall"][0] - mpi_from_scomm(blocks, "PMPI_Waitall")
        print(f"rank {rank}: SCOMM_Waitall {own / requests:.0f} own instructions per request")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "creation":
        creation(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "messages":
        messages(sys.argv[2:])
    else:
        sys.exit(__doc__)
