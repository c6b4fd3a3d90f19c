"""The "Thousands of simulated ranks" section of docs/RESULTS.md, from the smpi-scale-pP.json files
of scripts/bench_smpi_scale.sh."""
import json
from pathlib import Path

SCALE_COMMAND = ("./scripts/bench_smpi_scale.sh   # = smpirun -np P -platform cluster.xml "
                 "--cfg=smpi/simulate-computation:no --cfg=contexts/stack-size:256 "
                 "scale_check scomm|native, P = 1024 4096")


def scale_section(files):
    experiments = sorted((json.loads(Path(f).read_text()) for f in files),
                         key=lambda e: e["ranks"])
    parts = ["# Thousands of simulated ranks (SimGrid SMPI)", "",
             f"Command: `{SCALE_COMMAND}`  ",
             f"SimGrid: {experiments[0].get('simgrid', '?')}", "",
             "`scale_check scomm` splits the world into rows of 64 and into reversed halves, dups "
             "it, makes the even ranks locally (range) and collectively (create_group), runs a ring "
             "exchange, a same-tag exchange on the world and its dup received in opposite order, "
             "and bcast and allreduce on every communicator (scan and alltoall on the rows: SMPI's own scan is linear), each "
             "compared with SMPI's own MPI doing the same; `native` does the MPI half alone. Every "
             "communicator stays live to the end, so the difference of the two peaks is scomm's "
             "state. Peak = the simulator process's maximum resident set (all ranks, each with its "
             "own copy of the program: SMPI's dlopen privatization).", "",
             "| simulated ranks | mode | result | wall s | peak RSS MiB | peak bytes per rank |",
             "|---:|---|---|---:|---:|---:|"]
    for e in experiments:
        for run in e["runs"]:
            verdict = "pass" if run["passed"] else "FAIL"
            parts.append(f"| {e['ranks']} | {run['mode']} | {verdict}: {run['summary']} | "
                         f"{run['wall_s']:.1f} | {run['peak_rss_bytes'] / 2**20:.0f} | "
                         f"{run['peak_rss_bytes'] / e['ranks']:,.0f} |")
    parts += ["", "| simulated ranks | scomm - native, bytes per simulated rank |", "|---:|---:|"]
    for e in experiments:
        peak = {run["mode"]: run["peak_rss_bytes"] for run in e["runs"]}
        if {"scomm", "native"} <= peak.keys():
            parts.append(f"| {e['ranks']} | {(peak['scomm'] - peak['native']) / e['ranks']:,.0f} |")
    return parts + [""]
