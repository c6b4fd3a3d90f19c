#!/usr/bin/env python3
"""Writes docs/MEMORY.md from scomm-memory's JSON (docs/results/memory.json) and the resident
memory runs of the base MPIs and scomm (docs/results/memory-rss.json):

  make_memory.py OUT.md MEMORY.json RSS.json [--reproduce COMMAND]

Every figure comes from those files; the RSS growth per communicator is fitted as a + b*P over
the measured process counts and extrapolated to the analyzer's world sizes."""
import json
import sys
from pathlib import Path

TARGET_P = 786432


def kib(value):
    return f"{value / 1024:,.1f} KiB" if value >= 1024 else f"{value:,.0f} B"


def worst_rank(workload):
    return max(workload["ranks"], key=lambda r: r["total_bytes"])


def part_sums(r):
    p = r["parts"]
    return (p["maps"], p["context_table"] + p.get("world_run_table", 0) + p["held_ids"] + p["block_pool"],
            p["channels"] + p["handles"] + p["grids"], p["process"])


def workload_table(memory):
    rows = ["| workload | P | comms + groups | scomm total | maps | contexts (table, held ids, pool) "
            "| comm objects | per comm | largest map | heap measured | plain array | MPICH pmap "
            "| Open MPI dense | published |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for w in memory["workloads"]:
        r = worst_rank(w)
        maps, contexts, objects, _ = part_sums(r)
        largest = max(k["map_bytes_max"] for k in r["kinds"])
        pub = r["published"]
        rows.append(
            f"| {w['name']} | {w['world']:,} | {r['communicators']} + {r['groups']} "
            f"| {kib(r['total_bytes'])} | {kib(maps)} | {kib(contexts)} | {kib(objects)} "
            f"| {r['per_communicator_bytes']:,.0f} B | {largest:,} B | {kib(r['heap_measured_bytes'])} "
            f"| {kib(pub['plain_array'])} | {kib(pub['mpich'])} | {kib(pub['open_mpi_dense'])} "
            f"| {w['source']} |")
    return "\n".join(rows)


def kinds_table(memory):
    rows = ["| workload | communicators (or groups) of one kind | count | representation "
            "| members | map bytes each (max) |", "|---|---|---:|---|---:|---:|"]
    for w in memory["workloads"]:
        for k in worst_rank(w)["kinds"]:
            members = (f"{k['members_min']:,}" if k["members_min"] == k["members_max"]
                       else f"{k['members_min']:,}..{k['members_max']:,}")
            shared = " (shared)" if k["shared_maps"] else ""
            rows.append(f"| {w['name']} | {k['kind']}{' (group)' if k['group_only'] else ''} "
                        f"| {k['count']} | {k['representations']} | {members} "
                        f"| {k['map_bytes_max']:,}{shared} |")
    return "\n".join(rows)


def tables_table(memory):
    storages = list(worst_rank(memory["workloads"][0])["context_tables"])
    rows = ["| workload | live contexts | " + " | ".join(storages) + " |",
            "|---|---:|" + "---:|" * len(storages)]
    for w in memory["workloads"]:
        r = worst_rank(w)
        rows.append(f"| {w['name']} | {r['communicators']} | "
                    + " | ".join(kib(r["context_tables"][s]) for s in storages) + " |")
    return "\n".join(rows)


def fit(points):
    """Least squares a + b*P; one point gives b = 0."""
    n = len(points)
    if n == 1:
        return points[0][1], 0.0
    mp = sum(p for p, _ in points) / n
    my = sum(y for _, y in points) / n
    b = sum((p - mp) * (y - my) for p, y in points) / sum((p - mp) ** 2 for p, _ in points)
    return my - b * mp, b


def resolved(runs, slope):
    """Whether the fitted growth over the measured P exceeds the median rank-to-rank spread."""
    spreads = sorted(r["bytes_per_comm_max"] - r["bytes_per_comm_min"] for r in runs)
    growth = slope * (max(r["processes"] for r in runs) - min(r["processes"] for r in runs))
    return growth > spreads[len(spreads) // 2]


def series(rss):
    out = {}
    for run in rss:
        name = "scomm over " if run["library"] == "scomm" else ""
        key = (name + run["version"].split(",")[0], run["mode"])
        out.setdefault(key, []).append(run)
    return out


def rss_table(rss):
    rows = ["| library | mode | P | communicators | RSS growth per communicator (median over ranks) "
            "| min .. max |", "|---|---|---:|---:|---:|---:|"]
    for (library, mode), runs in series(rss).items():
        for run in sorted(runs, key=lambda r: r["processes"]):
            rows.append(f"| {library} | {mode} | {run['processes']} | {run['communicators']} "
                        f"| {run['bytes_per_comm_median']:,.0f} B | {run['bytes_per_comm_min']:,.0f}"
                        f" .. {run['bytes_per_comm_max']:,.0f} B |")
    return "\n".join(rows)


def fit_table(rss, memory):
    splits = next((w for w in memory["workloads"] if w["name"].startswith("100 odd/even")), None)
    scomm_100 = worst_rank(splits)["total_bytes"] if splits else None
    rows = [f"| library | mode | measured P | fit: bytes per communicator | at P = {TARGET_P:,} "
            f"| 100 communicators at P = {TARGET_P:,} |", "|---|---|---|---|---:|---:|"]
    for (library, mode), runs in series(rss).items():
        points = sorted((r["processes"], r["bytes_per_comm_median"]) for r in runs)
        a, b = fit(points)
        ps = ", ".join(str(p) for p, _ in points)
        if len(points) == 1:
            slope, at = f"{a:,.0f} (one P: no slope)", a
        elif resolved(runs, b):
            slope, at = f"{a:,.0f} + {b:,.2f} P", a + b * TARGET_P
        else:  # a slope smaller than the rank-to-rank spread is noise, not growth with P
            slope, at = f"{a:,.0f} + {b:,.2f} P (slope within the spread: not extrapolated)", a
        rows.append(f"| {library} | {mode} | {ps} | {slope} | {kib(at)} | {kib(100 * at)} |")
    if scomm_100 is not None:
        rows.append(f"| scomm-memory (analyzer) | 100 odd/even splits | - | - | - "
                    f"| {kib(scomm_100)} (all of scomm's state) |")
    return "\n".join(rows)


def main():
    args = sys.argv[1:]
    reproduce = None
    if "--reproduce" in args:
        i = args.index("--reproduce")
        reproduce = args[i + 1]
        del args[i:i + 2]
    out, memory_file, rss_file = Path(args[0]), Path(args[1]), Path(args[2])
    memory = json.loads(memory_file.read_text())
    rss = json.loads(rss_file.read_text()) if rss_file.exists() else []
    s = memory["object_sizes"]
    parts = ["# scomm per-rank memory", "",
             "Generated by `scripts/make_memory.py` from `docs/results/memory.json` "
             "(`scomm-memory`) and `docs/results/memory-rss.json` (`mpi-comm-rss`, "
             "`scomm-comm-rss`); do not edit by hand.", ""]
    if reproduce:
        parts += [f"Reproduce: `{reproduce}`  ", ""]
    parts += [f"Analyzer run: `{memory['command']}` on {memory.get('cpu', '?')}, "
              f"{memory.get('compiler', '?')}", "", "## Goals", "", "```"]
    parts += [("PASS " if g["pass"] else "FAIL ") + f"{g['goal']}: {g['detail']}"
              for g in memory["goals"]]
    parts += ["```", "", "## Bytes per rank, by part (scomm-memory)", "",
              "`scomm-memory` builds, in one process, the state one rank holds at the workload's "
              "world size with the library's own objects: maps made by the group layer exactly "
              "as communicator creation makes them (odd/even splits through `group::incl` on the "
              "parent's map, row splits through `comm::range_map`, Cartesian sub-grids composed "
              "with the grid's map), a real `p2p::Channel` and `comm::Comm` per communicator in a "
              "real handle table, context ids from the real block allocation (highest-CID, "
              f"{memory['context_ids']:,} ids, blocks of 2^{memory['derive_bits']}) and local "
              "derivation, a real context "
              "table, held-id bits and block pool. *maps* is the map objects' `bytes()` (a shared "
              "map once); *contexts* the context table (radix, the default), held-id bits and "
              "block pool (per process, independent of the communicators: the pool's two bits a "
              "block, the held-id bits, and the table's 8 KiB of radix leaves, one per 256 blocks, "
              "for the world's first run of 1,024 blocks, which SCOMM_Init reserves and makes room "
              "for so that local creation on the world allocates nothing); *comm objects* a "
              f"channel ({s['channel']} B), a handle-table slot ({s['handle_slot']} B: the "
              f"`CommEntry` with its `Comm`, {s['comm']} B) and Cartesian grids; *total* adds the "
              f"`Runtime` ({s['runtime']} B) and `capi::Context` ({s['capi_context']} B) objects. "
              "*per comm* is what grows with the communicators (and groups), divided by their number. *heap "
              "measured* is glibc's `mallinfo2` growth while the state was built (malloc headers "
              "and `shared_ptr` control blocks included, the analyzer's own records subtracted). "
              f"A communicator's message queues are made on its first collective or `MPI_ANY_TAG` "
              f"receive: {s['queues_measured']:,} B more each (measured), in the goal's second "
              "figure. The worst of the analysed ranks (first and last member) is shown. "
              "*plain array*, *MPICH pmap* and *Open MPI dense* are what the same maps take in "
              "those structures (`bench/baselines.cpp`: 4 B per member; MPICH's `MPIR_Pmap`, 32 B "
              "strided else 8 B per member; a proc pointer per member), each shared map once.",
              "", workload_table(memory), "",
              "Not counted: the base MPI's own memory (scomm's base communicators are "
              "`SCOMM_BASE_COMMS` duplicates of `MPI_COMM_WORLD`, measured below as part of "
              "`SCOMM_Init`), the network addresses (AV-Rankmap's 9 MB includes them: O(P) and "
              "held by the base MPI here), the matching engine's queues, and the runtime's "
              "free-list of 1,024 recycled channel blocks.", "",
              "## Per communicator kind", "", kinds_table(memory), "",
              "## Context table by storage kind (same live ids)", "", tables_table(memory), ""]
    if rss:
        parts += ["## Resident memory per communicator, measured", "",
                  "`mpi-comm-rss MODE N` creates one communicator, then N more live ones "
                  "(`MPI_Comm_dup` of the world, or odd/even `MPI_Comm_split`) and reports the "
                  "VmRSS growth divided by N, the median over ranks; `scomm-comm-rss` does the same "
                  "with `SCOMM_Comm_dup`, `SCOMM_Comm_split`, and `range`: a chain of "
                  "`SCOMM_Comm_create_range` (each the whole previous one: local creation, a block "
                  "allocation every `SCOMM_DERIVE_BITS` levels). Processes oversubscribed on this "
                  "machine's cores; RSS has page (4 KiB) granularity, so N communicators resolve "
                  "4096/N bytes each.", "", rss_table(rss), "",
                  "Fitted a + b·P over the measured process counts (least squares) and "
                  "extrapolated; the base MPIs' growth is all of their per-communicator state "
                  "(group, context, collective modules), scomm's is its own state plus the "
                  "allgather/allreduce buffers its creation leaves in malloc's free lists.", "",
                  fit_table(rss, memory), ""]
        fixed = {}
        for r in rss:
            if r["library"] == "scomm":
                fixed.setdefault(r["processes"], []).append(r["fixed_bytes_rank0"])
        if fixed:
            parts += ["`SCOMM_Init` itself (its base communicators, held-id bits, block pool, "
                      "matching engine), RSS growth at rank 0 over the runs: " +
                      ", ".join(f"P = {p}: {kib(min(b))} .. {kib(max(b))}"
                                for p, b in sorted(fixed.items())) + ".", ""]
    out.write_text("\n".join(parts))


if __name__ == "__main__":
    main()
