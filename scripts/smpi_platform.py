#!/usr/bin/env python3
"""Writes a SimGrid platform of nested levels and the hostfile that places ranks on it in order.

usage: smpi_platform.py PREFIX --site CORES[,CORES...] [--site ...] [--wan-latency 10ms]
                        [--lan-latency 100us] [--core-latency 1us] [--wan-bandwidth 100MBps]
                        [--lan-bandwidth 1GBps] [--core-bandwidth 10GBps]

Each --site lists its machines' core counts: `--site 16,16 --site 16` is the seed's 48 ranks
(two machines sharing a LAN at one site, one machine at another). A machine is one SimGrid host
with that many cores, so SMPI's MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) and its SMP-aware
collectives see it as a node. Writes PREFIX.xml, PREFIX.hosts (one line per rank: machines in
the order given, so ranks are consecutive within a machine and within a site) and the true
levels as topology files (SCOMM_TOPO_FILE's format): PREFIX.topo (site and machine),
PREFIX-site.topo and PREFIX-machine.topo (one level each).

Latencies are one-way, end to end: two cores of a machine talk through its loopback link (core
latency); two machines of a site through their NICs (half the LAN latency each); machines of two
sites through their NICs and both sites' WAN uplinks (half the WAN latency each), so WAN latency
+ LAN latency in all. Every link is shared by the flows that cross it.
"""
import argparse
from pathlib import Path


def machines(sites):
    """(site, machine name, cores) for every machine, in rank order."""
    return [(s, f"s{s}m{m}", cores) for s, counts in enumerate(sites)
            for m, cores in enumerate(counts)]


def half(latency):
    """Half of a latency such as '10ms' or '100us', in the same unit."""
    number = latency.rstrip("munsµ")
    return f"{float(number) / 2:g}{latency[len(number):]}"


def route(a, b):
    """The links from machine a to machine b (each a (site, name, cores))."""
    if a[1] == b[1]:
        return [f"{a[1]}-loopback"]
    if a[0] == b[0]:
        return [f"{a[1]}-nic", f"{b[1]}-nic"]
    return [f"{a[1]}-nic", f"site{a[0]}-wan", f"site{b[0]}-wan", f"{b[1]}-nic"]


def platform(sites, o):
    hosts = machines(sites)
    lines = ["<?xml version='1.0'?>",
             '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
             '<platform version="4.1">', '  <zone id="grid" routing="Full">']
    for _, name, cores in hosts:
        lines.append(f'    <host id="{name}" speed="1Gf" core="{cores}"/>')
    for _, name, _ in hosts:
        lines.append(f'    <link id="{name}-loopback" bandwidth="{o.core_bandwidth}" '
                     f'latency="{o.core_latency}"/>')
        lines.append(f'    <link id="{name}-nic" bandwidth="{o.lan_bandwidth}" '
                     f'latency="{half(o.lan_latency)}"/>')
    for s in range(len(sites)):
        lines.append(f'    <link id="site{s}-wan" bandwidth="{o.wan_bandwidth}" '
                     f'latency="{half(o.wan_latency)}"/>')
    for i, a in enumerate(hosts):
        for b in hosts[i:]:
            links = "".join(f'<link_ctn id="{link}"/>' for link in route(a, b))
            lines.append(f'    <route src="{a[1]}" dst="{b[1]}">{links}</route>')
    return "\n".join(lines + ["  </zone>", "</platform>", ""])


def topology(sites, levels):
    """A topology file of `levels` (names among 'site', 'machine'), one line per rank."""
    lines = ["# levels: " + " ".join(levels)]
    for machine, (site, _, cores) in enumerate(machines(sites)):
        colors = {"site": site, "machine": machine}
        lines += [" ".join(str(colors[level]) for level in levels)] * cores
    return "\n".join(lines + [""])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prefix")
    parser.add_argument("--site", action="append", required=True,
                        help="the core counts of one site's machines, comma-separated")
    parser.add_argument("--wan-latency", default="10ms")
    parser.add_argument("--lan-latency", default="100us")
    parser.add_argument("--core-latency", default="1us")
    parser.add_argument("--wan-bandwidth", default="100MBps")
    parser.add_argument("--lan-bandwidth", default="1GBps")
    parser.add_argument("--core-bandwidth", default="10GBps")
    o = parser.parse_args()
    sites = [[int(c) for c in site.split(",")] for site in o.site]
    Path(o.prefix + ".xml").write_text(platform(sites, o))
    Path(o.prefix + ".hosts").write_text(
        "".join(f"{name}\n" * cores for _, name, cores in machines(sites)))
    for suffix, levels in ((".topo", ["site", "machine"]), ("-site.topo", ["site"]),
                           ("-machine.topo", ["machine"])):
        Path(o.prefix + suffix).write_text(topology(sites, levels))


if __name__ == "__main__":
    main()
