#!/usr/bin/env python3
"""Reads sysbench 1.0 run output (with --histogram=on) into one TSV line, or prints the table.

    parse_sysbench.py THREADS TARGET ROUND LOGFILE   -> threads target round qps median_us
    parse_sysbench.py --table RESULTS.tsv            -> Markdown table, median round per cell
    parse_sysbench.py --cpu CPU.tsv                  -> Markdown table of CPU µs per query

The median latency comes from the histogram (values printed to 1 µs), not from sysbench's
"50th percentile" line, which is rounded to 10 µs.
"""
import re
import statistics
import sys


def parse(path):
    qps = None
    buckets = []
    in_histogram = False
    for line in open(path):
        m = re.search(r"queries:\s+\d+\s+\(([\d.]+) per sec", line)
        if m:
            qps = float(m.group(1))
        if "distribution" in line:
            in_histogram = True
            continue
        if in_histogram:
            m = re.match(r"\s*([\d.]+)\s+\|\**\s+(\d+)\s*$", line)
            if m:
                buckets.append((float(m.group(1)), int(m.group(2))))
            elif line.strip() == "" and buckets:
                in_histogram = False
    total = sum(c for _, c in buckets)
    seen = 0
    median_ms = None
    for value, count in buckets:
        seen += count
        if seen * 2 >= total:
            median_ms = value
            break
    if qps is None or median_ms is None:
        raise SystemExit(f"cannot parse {path}")
    return qps, median_ms * 1000.0


def table(path):
    cells = {}
    rounds = {}
    for line in open(path):
        threads, target, rnd, qps, median = line.split()
        cells.setdefault((int(threads), target), []).append((float(qps), float(median)))
        rounds[(int(threads), target, rnd)] = float(qps)
    print("| threads | path | queries/s | vs direct | vs HAProxy | per-round vs HAProxy (median, range) | median latency | added vs direct |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for threads in sorted({t for t, _ in cells}):
        med = {}
        for target in ORDER:
            runs = cells.get((threads, target), [])
            if runs:
                med[target] = (statistics.median(q for q, _ in runs), statistics.median(m for _, m in runs))
        for target in ORDER:
            if target not in med:
                continue
            qps, lat = med[target]
            vs_direct = qps / med["direct"][0] if "direct" in med else float("nan")
            vs_ha = qps / med["haproxy"][0] if "haproxy" in med else float("nan")
            added = lat - med["direct"][1] if "direct" in med else float("nan")
            # Rounds interleave the paths, so a round's ratio compares runs made minutes apart at most.
            paired = sorted(rounds[(threads, target, r)] / rounds[(threads, "haproxy", r)]
                            for (t, g, r) in rounds if t == threads and g == target
                            and (threads, "haproxy", r) in rounds)
            pr = (f"{statistics.median(paired):.2f} ({paired[0]:.2f}–{paired[-1]:.2f})"
                  if paired and target not in ("haproxy",) else "")
            print(f"| {threads} | {NAMES[target]} | {qps:,.0f} | {vs_direct:.2f} | {vs_ha:.2f} | {pr} | {lat:.0f} µs | {added:+.0f} µs |")


def cpu_table(path):
    cells = {}
    rounds = {}
    for line in open(path):
        threads, target, rnd, hop, db = line.split()
        cells.setdefault((int(threads), target), []).append((float(hop), float(db)))
        rounds[(int(threads), target, rnd)] = float(hop)
    print("| threads | path | hop's CPU per query | server's CPU per query | per-round hop CPU vs proxy (median, range) |")
    print("|---:|---|---:|---:|---:|")
    for (threads, target), runs in sorted(cells.items(), key=lambda kv: (kv[0][0], ORDER.index(kv[0][1]))):
        hop = statistics.median(h for h, _ in runs)
        db = statistics.median(d for _, d in runs)
        # proxy-capture against the proxy without capture, round by round (runs next to each other).
        paired = sorted(rounds[(threads, target, r)] / rounds[(threads, "proxy", r)]
                        for (t, g, r) in rounds if t == threads and g == target
                        and target == "proxy-capture" and rounds.get((threads, "proxy", r)))
        pr = f"{statistics.median(paired):.2f} ({paired[0]:.2f}–{paired[-1]:.2f})" if paired else ""
        print(f"| {threads} | {NAMES[target]} | {'-' if target == 'direct' else f'{hop:.1f} µs'} | {db:.1f} µs | {pr} |")


ORDER = ["direct", "haproxy", "proxy", "proxy-capture", "proxy-epoll", "proxy-nio"]
NAMES = {"direct": "direct", "haproxy": "HAProxy (TCP mode)", "proxy": "wire-advisor proxy",
         "proxy-capture": "wire-advisor proxy, capturing every command",
         "proxy-epoll": "wire-advisor proxy, epoll transport",
         "proxy-nio": "wire-advisor proxy, NIO transport"}


if __name__ == "__main__":
    if sys.argv[1] == "--table":
        table(sys.argv[2])
    elif sys.argv[1] == "--cpu":
        cpu_table(sys.argv[2])
    else:
        threads, target, rnd, path = sys.argv[1:5]
        qps, median_us = parse(path)
        print(f"{threads}\t{target}\t{rnd}\t{qps:.1f}\t{median_us:.1f}")
