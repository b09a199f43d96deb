#!/usr/bin/env python3
"""Build endgame tables on a Dask cluster.

A table needs the smaller ones, so the tables are built in order of their
seed count; a large Kalah table is split into groups of blocks (by the
mover row's seed sum) that are built at once, each by one worker into its
own partial file, then assembled into the table file, byte for byte the
file a build on one machine writes:

    plan = `mancala build GAME --max-seeds K --plan --json` (and the options)
    for each table k not on disk, in order:
        one group:   worker: `mancala build GAME --max-seeds k`
        else:        workers: `mancala build GAME --max-seeds k --group SUMS`,
                     one task per group, then
                     worker: `mancala build GAME --max-seeds k --assemble`

Everything lives in the table directory (--db), which the workers must
share (the same path on every machine: shared storage on a cluster). A
killed task loses only itself: its group is built again (partial files
found sound are kept), and running the same command again goes on from
what is on disk. Any `mancala build` option after `--` is passed to every
call (--db, --group-size, --memory, --threads, the rules, ...). `--memory`
is each task's budget: with several workers on one machine, give each a
share of its memory (the smaller tables they map are shared in the page
cache). Each task is retried twice (a worker lost, a process killed).

    python3 dist/dask_build.py --workers 2 -- kalah:6 --max-seeds 24 --group-size 64M
    python3 dist/dask_build.py --scheduler tcp://head:8786 -- kalah:6 --max-seeds 34 \\
        --db /shared/db --group-size 8G --memory 20G --threads 0

Prints one JSON object at the end: per table, the tasks and the seconds
they took, and the driver's totals (tasks, seconds, workers).
"""

import argparse
import json
import logging
import os
import shutil
import subprocess
import sys
import time


def run(mancala, args, *extra):
    """On a worker (or the driver): one `mancala build` call, its JSON report."""
    start = time.time()
    out = subprocess.run(
        [mancala, "build", *args, *extra, "--json"], capture_output=True, text=True
    )
    if out.returncode != 0:
        e = RuntimeError(
            f"mancala build {' '.join([*args, *extra])} failed ({out.returncode}): {out.stderr.strip()}"
        )
        e.code = out.returncode
        raise e
    return {"report": json.loads(out.stdout), "seconds": round(time.time() - start, 3)}


def with_seeds(args, k):
    """`args` with --max-seeds set to k."""
    out, skip = [], False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if a == "--max-seeds":
            skip = True
            continue
        if a.startswith("--max-seeds="):
            continue
        out.append(a)
    return [*out, "--max-seeds", str(k)]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scheduler", help="address of a running Dask scheduler (default: start a local cluster)")
    p.add_argument("--workers", type=int, default=2, help="workers of the local cluster (default 2)")
    p.add_argument("--mancala", default="mancala", help="the mancala binary (default: on PATH)")
    p.add_argument("args", nargs=argparse.REMAINDER, help="-- then the arguments of `mancala build`")
    a = p.parse_args()
    args = a.args[1:] if a.args[:1] == ["--"] else a.args
    if not args:
        p.error("give the arguments of `mancala build` after --, e.g. -- kalah:4 --max-seeds 12")
    if a.scheduler is None and a.workers < 1:
        p.error(f"--workers {a.workers}: a local cluster needs at least 1 worker")
    for own in ("--json", "--plan", "--group", "--assemble"):
        if any(x == own or x.startswith(own + "=") for x in args):
            p.error(f"{own} is the driver's to give: leave it out of the arguments after --")
    if shutil.which(a.mancala) is None:
        where = "no such file" if os.sep in a.mancala else "not found on PATH"
        if os.sep in a.mancala and os.path.exists(a.mancala):
            where = "not an executable file"
        p.error(
            f"--mancala {a.mancala}: {where}; give the mancala binary "
            "(`cargo build --release` makes target/release/mancala)"
        )

    try:
        plan = run(a.mancala, args, "--plan")["report"]["tables"]
    except (RuntimeError, OSError, ValueError) as e:
        print(f"error: the plan failed: {e}", file=sys.stderr)
        # mancala's own usage errors (exit code 2) stay usage errors.
        sys.exit(2 if getattr(e, "code", None) == 2 else 1)

    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as e:
        sys.exit(f"error: dask_build.py needs Dask ({e}): pip install 'dask[distributed]'")

    start = time.time()
    if a.scheduler:
        client = Client(a.scheduler)
    else:
        cluster = LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.CRITICAL)
        client = Client(cluster)
    workers = len(client.scheduler_info()["workers"])
    tables, tasks = [], 0
    try:
        for t in plan:
            k = t["seeds"]
            if t["found"]:
                tables.append({"seeds": k, "found": True})
                continue
            kargs = with_seeds(args, k)
            t0 = time.time()
            if len(t["groups"]) <= 1:
                done = client.submit(run, a.mancala, kargs, pure=False, retries=2).result()
                tables.append({"seeds": k, "tasks": 1, "seconds": done["seconds"]})
                tasks += 1
                continue
            sums = ["+".join(str(s) for s in g) for g in t["groups"]]
            futures = [client.submit(run, a.mancala, kargs, "--group", g, pure=False, retries=2) for g in sums]
            try:
                groups = [f.result() for f in futures]
            finally:
                client.cancel(futures)
            done = client.submit(run, a.mancala, kargs, "--assemble", pure=False, retries=2).result()
            tasks += len(groups) + 1
            tables.append({
                "seeds": k,
                "tasks": len(groups) + 1,
                "groups": [{"sums": g["report"]["sums"], "seconds": g["seconds"]} for g in groups],
                "assemble_seconds": done["seconds"],
                "seconds": round(time.time() - t0, 3),
            })
    except Exception as e:  # a task's failure, a lost worker: say which, stop cleanly
        client.close()
        sys.exit(f"the build stopped: {e}")
    print(json.dumps({
        "tables": tables,
        "driver": {"tasks_run": tasks, "seconds": round(time.time() - start, 3), "workers": workers},
    }))
    client.close()


if __name__ == "__main__":
    main()
