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
             "compared with SMPI's own MPI doing the same; `native` does the MPI half alone; "
             "`scomm-1base` is scomm with `SCOMM_BASE_COMMS=1` (one base communicator: 65,536 "
             "contexts instead of 2^20, and 15 fewer `MPI_Comm_dup` of the world per rank); "
             "`scomm-multilevel` is scomm with levels named (`SCOMM_TOPO_BLOCKS=site=256,machine=16`), "
             "so that every collective but alltoall on a communicator spanning several sites runs "
             "its multilevel schedule, compared with SMPI's flat MPI all the same. Every "
             "communicator stays live to the end. Peak RSS = the simulator process's maximum "
             "resident set (all ranks, each with its own copy of the program: SMPI's dlopen "
             "privatization). Heap = malloc's bytes in use, read by rank 0 while every rank holds "
             "all its state (all ranks share the process's malloc): it leaves out the program "
             "copies, so heap growth per rank is the workload's memory, scomm's and SMPI's own "
             "MPI objects (groups, communicators) together.", "",
             "| simulated ranks | mode | result | wall s | peak RSS MiB | peak RSS bytes per rank "
             "| heap growth per rank (peak - after MPI_Init) |",
             "|---:|---|---|---:|---:|---:|---:|"]
    for e in experiments:
        for run in e["runs"]:
            verdict = "pass" if run["passed"] else "FAIL"
            parts.append(f"| {e['ranks']} | {run['mode']} | {verdict}: {run['summary']} | "
                         f"{run['wall_s']:.1f} | {run['peak_rss_bytes'] / 2**20:.0f} | "
                         f"{run['peak_rss_bytes'] / e['ranks']:,.0f} | {heap_growth(run, e)} |")
    parts += ["", "| simulated ranks | mode | RSS: mode - native, bytes per rank "
              "| heap: mode - native, bytes per rank |", "|---:|---|---:|---:|"]
    for e in experiments:
        runs = {run["mode"]: run for run in e["runs"]}
        if "native" not in runs:
            continue
        native = runs["native"]
        for mode in ("scomm", "scomm-1base", "scomm-multilevel"):
            if mode not in runs:
                continue
            run = runs[mode]
            rss = (run["peak_rss_bytes"] - native["peak_rss_bytes"]) / e["ranks"]
            heap = ((run.get("heap_peak_bytes", 0) - native.get("heap_peak_bytes", 0)) / e["ranks"]
                    if "heap_peak_bytes" in run and "heap_peak_bytes" in native else None)
            parts.append(f"| {e['ranks']} | {mode} | {rss:,.0f} | "
                         f"{'-' if heap is None else f'{heap:,.0f}'} |")
    parts += ["", "What `scomm` holds beyond `scomm-1base` is SMPI's memory for 15 more duplicates of "
              "the world, each with world-sized rank arrays in every rank: it grows with P, while "
              "scomm's own state per communicator does not (docs/MEMORY.md). `scomm-1base` runs at "
              "the rank counts in `SCOMM_SMPI_SCALE_1BASE_RANKS` (default 1024); "
              "`SCOMM_SMPI_SCALE_VARIANTS` reruns chosen variants and keeps the others' results."]
    return parts + [""]


def heap_growth(run, experiment):
    if not run.get("heap_peak_bytes"):
        return "-"
    return f"{(run['heap_peak_bytes'] - run['heap_start_bytes']) / experiment['ranks']:,.0f}"
