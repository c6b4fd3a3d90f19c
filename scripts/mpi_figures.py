"""PNG figures of the MPI experiments (scomm-mpibench JSON), for docs/RESULTS.md.

Used by make_results.py; also runs alone:
    python3 scripts/mpi_figures.py OUT_DIR docs/results/mpi-*.json
"""
import json
import sys
from pathlib import Path


def pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        return None


def rows_of(runs, experiment):
    return [r for run in runs for r in run["rows"] if r["experiment"] == experiment]


def save(plt, fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def collectives_figure(plt, runs, cores, out_dir):
    """scomm / native per collective against bytes, one panel per process count."""
    rows = [r for r in rows_of(runs, "collectives") if r["extra"].get("library") == "scomm"]
    counts = sorted({r["processes"] for r in rows})
    if not counts:
        return None
    columns = min(3, len(counts))
    lines = (len(counts) + columns - 1) // columns
    fig, axes = plt.subplots(lines, columns, figsize=(4.6 * columns + 1.6, 3.8 * lines),
                             sharey=True, squeeze=False)
    panels = [ax for line in axes for ax in line]
    for ax in panels[len(counts):]:
        ax.set_visible(False)
    for ax, p in zip(panels, counts):
        mine = [r for r in rows if r["processes"] == p and int(r["extra"]["bytes"]) > 0]
        for name in dict.fromkeys(r["extra"]["collective"] for r in mine):
            points = sorted((int(r["extra"]["bytes"]), float(r["extra"]["scomm/native"]))
                            for r in mine if r["extra"]["collective"] == name)
            ax.plot(*zip(*points), marker="o", markersize=3, linewidth=1, label=name)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.axhline(1.25, color="grey", linewidth=0.8, linestyle="--")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("bytes")
        ax.set_title(f"P = {p}")
    for line in axes:
        line[0].set_ylabel("scomm / native (median)")
    axes[0][-1].legend(fontsize=6, loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.suptitle(f"Collectives against the base MPI's ({cores} cores); dashed: the 1.25 goal")
    return save(plt, fig, out_dir / f"mpi-c{cores}-collectives.png")


def janus_figure(plt, runs, cores, out_dir):
    """Janus sort time against elements per rank, both builds."""
    rows = rows_of(runs, "janus-sort")
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for prefix, label in (("scomm ", "scomm ranges"), ("mpi ", "MPI_Comm_split")):
        for p in sorted({r["processes"] for r in rows}):
            points = sorted((2 ** int(r["name"].split("n/P=2^")[1]), r["median"] / 1e6)
                            for r in rows if r["processes"] == p and r["name"].startswith(prefix))
            ax.plot(*zip(*points), marker="o", markersize=3, label=f"{label}, P = {p}")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("elements per rank")
    ax.set_ylabel("ms (median, slowest rank)")
    ax.set_title(f"Janus quicksort, scomm against MPI_Comm_split ({cores} cores)")
    ax.legend(fontsize=8)
    return save(plt, fig, out_dir / f"mpi-c{cores}-janus-sort.png")


def mpi_figures(runs, out_dir):
    """Figures for the runs of one machine; returns {experiment: path}."""
    plt = pyplot()
    if plt is None or not runs:
        return {}
    out_dir.mkdir(parents=True, exist_ok=True)
    cores = runs[0].get("cores", 0)
    made = {"collectives": collectives_figure(plt, runs, cores, out_dir),
            "janus-sort": janus_figure(plt, runs, cores, out_dir)}
    return {k: v for k, v in made.items() if v is not None}


if __name__ == "__main__":
    loaded = [json.loads(Path(f).read_text()) for f in sys.argv[2:]]
    for machine in sorted({run.get("cores", 0) for run in loaded}):
        for path in mpi_figures([r for r in loaded if r.get("cores", 0) == machine],
                                Path(sys.argv[1])).values():
            print(path)
