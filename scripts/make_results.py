#!/usr/bin/env python3
"""Turns scomm-bench JSON files into docs/RESULTS.md (and PNG figures when matplotlib is there).

usage: make_results.py OUT.md RESULTS.json... [--reproduce "COMMAND"]
"""
import datetime
import json
import platform
import subprocess
import sys
from pathlib import Path

REGULAR = {"direct", "offset", "stride", "stride-block", "box", "empty"}


def shell(command):
    try:
        return subprocess.run(command, shell=True, capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"


def machine():
    cpu = shell("lscpu | sed -n 's/^Model name: *//p'") or platform.processor()
    memory = shell("free -g | awk '/Mem/ {print $2}'")
    compiler = shell("c++ --version | head -1")
    return (f"{cpu}, {shell('nproc')} cores, {memory} GiB; {compiler}; "
            f"{platform.system()} {platform.release()}")


def by_role(workload, role):
    return [m for m in workload["maps"] if m["role"] == role]


def fmt_bytes(b):
    return f"{b:,.0f}"


def summary_table(experiment):
    rows = ["| workload | n | bound B | plain B | MPICH B | Open MPI B | SPACE pick | B | x bound "
            "| HYBRID pick | B | select ns | reverse ns | TIME pick | select ns |",
            "|---|---:|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---:|---|---:|"]
    for w in experiment["workloads"]:
        b = w["baselines"]
        space, hybrid, time = (by_role(w, r)[0] for r in ("space", "hybrid", "time"))
        rows.append(
            f"| {w['workload']} | {w['n']:,} | {fmt_bytes(b['bound'])} | {fmt_bytes(b['plain_array'])} "
            f"| {fmt_bytes(b['mpich'])} | {fmt_bytes(b['open_mpi'])} | {space['representation']} "
            f"| {fmt_bytes(space['bytes'])} | {space['bytes'] / max(b['bound'], 1):.2f} "
            f"| {hybrid['representation']} | {fmt_bytes(hybrid['bytes'])} "
            f"| {hybrid['select_ns']['median']:.1f} | {hybrid['reverse_ns']['median']:.1f} "
            f"| {time['representation']} | {time['select_ns']['median']:.1f} |")
    return "\n".join(rows)


def detail_table(workload):
    rows = [f"**{workload['workload']}** (n = {workload['n']:,}, W = {workload['world']:,})", "",
            "| representation | bytes | x bound | select ns (min-max) | sequential ns | reverse ns "
            "| build ms |", "|---|---:|---:|---|---:|---:|---:|"]
    bound = max(workload["baselines"]["bound"], 1)
    for m in by_role(workload, "candidate"):
        s = m["select_ns"]
        rows.append(f"| {m['representation']} | {fmt_bytes(m['bytes'])} | {m['bytes'] / bound:.2f} "
                    f"| {s['median']:.1f} ({s['min']:.1f}-{s['max']:.1f}) "
                    f"| {m['sequential_ns']['median']:.2f} | {m['reverse_ns']['median']:.1f} "
                    f"| {m['build_ms']['median']:.2f} |")
    return "\n".join(rows)


def goal_checks(experiments):
    lines = []

    def check(ok, text):
        lines.append(f"- **{'PASS' if ok else 'FAIL'}** {text}")

    workloads = [w for e in experiments for w in e["workloads"]]
    regular = [m for w in workloads for m in w["maps"] if m["representation"] in REGULAR]
    worst = max((m["bytes"] for m in regular), default=0)
    check(worst <= 64, f"regular patterns <= 64 bytes: largest regular map {worst} B "
                       f"({len(regular)} maps)")
    ratios = []
    for w in workloads:
        space = by_role(w, "space")[0]
        ratio = 0.0 if space["representation"] in REGULAR else space["bytes"] / w["baselines"]["bound"]
        ratios.append((ratio, w["workload"], space["representation"]))
    r, name, rep = max(ratios)
    check(r <= 1.3, f"every workload within 1.3x of the bound under SPACE: worst {r:.2f}x "
                    f"({name}, {rep}); regular maps count as within")
    slow = []
    for w in workloads:
        plain = [m for m in by_role(w, "candidate") if m["representation"] == "plain-array"]
        for m in by_role(w, "hybrid"):
            if m["representation"] in REGULAR and plain:
                slow.append((m["select_ns"]["median"] / plain[0]["select_ns"]["median"], w["workload"]))
    if slow:
        r, name = max(slow)
        check(r <= 1.5, f"regular-pattern select within 1.5x of a plain array lookup in the same "
                        f"run: worst {r:.2f}x ({name})")
    big = [w for w in workloads if w["world"] >= 1000000]
    worst_sel = max(((by_role(w, "hybrid")[0]["select_ns"]["median"], w["workload"]) for w in big),
                    default=(0, "-"))
    worst_rev = max(((by_role(w, "hybrid")[0]["reverse_ns"]["median"], w["workload"]) for w in big),
                    default=(0, "-"))
    check(worst_sel[0] < 100, f"HYBRID random select < 100 ns at W >= 10^6: worst {worst_sel[0]:.1f} ns "
                              f"({worst_sel[1]}), {len(big)} workloads")
    check(worst_rev[0] < 200, f"HYBRID reverse lookup < 200 ns at W >= 10^6: worst {worst_rev[0]:.1f} ns "
                              f"({worst_rev[1]})")
    return "\n".join(lines)


def figures(experiments, out_dir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    made = []
    out_dir.mkdir(parents=True, exist_ok=True)
    for e in experiments:
        fig, ax = plt.subplots(figsize=(10, 5.5))
        reps = sorted({m["representation"] for w in e["workloads"] for m in by_role(w, "candidate")})
        colors = plt.get_cmap("tab20")
        markers = "os^Dv<>P"
        for i, rep in enumerate(reps):
            points = [(m["select_ns"]["median"], m["bytes"] / max(w["baselines"]["bound"], 1))
                      for w in e["workloads"] for m in by_role(w, "candidate")
                      if m["representation"] == rep and m["select_ns"]["median"] > 0]
            if points:
                ax.scatter(*zip(*points), label=rep, s=20, color=colors(i % 20),
                           marker=markers[i % len(markers)])
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("random select (ns, median)")
        ax.set_ylabel("bytes / information-theoretic bound")
        ax.set_title(f"{e['experiment']}: space vs lookup time per representation")
        ax.legend(fontsize=7, ncol=1, loc="center left", bbox_to_anchor=(1.0, 0.5))
        path = out_dir / f"{e['experiment']}.png"
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        made.append(path)
    return made


def main():
    args = sys.argv[1:]
    reproduce = None
    if "--reproduce" in args:
        i = args.index("--reproduce")
        reproduce = args[i + 1]
        del args[i:i + 2]
    out = Path(args[0])
    everything = [e for f in args[1:] for e in json.loads(Path(f).read_text())]
    experiments = [e for e in everything if "workloads" in e]
    tables = [e for e in everything if e["experiment"] == "context-tables"]
    pngs = figures(experiments, out.parent / "figures")
    parts = ["# scomm results", "",
             "Generated by `scripts/make_results.py` from the JSON written by `scomm-bench`; do not "
             "edit by hand.", "",
             f"- reproduce: `{reproduce or experiments[0]['command']}`",
             f"- machine: {machine()}",
             f"- date: {datetime.date.today().isoformat()}",
             f"- each figure is the median of {experiments[0]['reps']} builds, lookup timings over "
             ">= 10 ms batches each (min-max in the detail tables)", "",
             "## Goals (issue: foundation and compact group maps)", "", goal_checks(experiments), ""]
    for e in experiments:
        parts += [f"## {e['experiment']}", "", f"Command: `{e['command']}`", "",
                  "Baselines are computed from each system's published structures: plain = 4 B per "
                  "member; MPICH = AV-Rankmap (constant for direct/offset/stride/stride-block, else 8 B "
                  "per rank); Open MPI = min of its sparse-group formulas (dense, strided, sporadic, "
                  "bitmap); bound = log2 C(W, n) bits (+ log2 n! when not ascending).", "",
                  summary_table(e), ""]
        png = out.parent / "figures" / f"{e['experiment']}.png"
        if png in pngs:
            parts += [f"![{e['experiment']}](figures/{png.name})", ""]
        parts += ["<details><summary>Every representation, every workload</summary>", ""]
        parts += [detail_table(w) + "\n" for w in e["workloads"]]
        parts += ["</details>", ""]
    for e in tables:
        parts += ["## context-tables (issue: communicators, context ids)", "",
                  f"Command: `{e['command']}`", "",
                  "Context -> communicator lookup for an arriving message, per storage strategy "
                  "(Bosilca et al.), ids random in [0, 2^20); find = lookup of a live id, update = "
                  "erase + insert; medians (min-max).", "",
                  "| storage | live communicators | find ns | update ns | bytes |",
                  "|---|---:|---|---:|---:|"]
        parts += [f"| {r['storage']} | {r['live']:,} | {r['find_ns']:.1f} ({r['find_min']:.1f}-"
                  f"{r['find_max']:.1f}) | {r['update_ns']:.1f} | {r['bytes']:,} |" for r in e["rows"]]
        parts += [""]
    out.write_text("\n".join(parts))


if __name__ == "__main__":
    main()
