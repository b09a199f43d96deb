#!/usr/bin/env python3
"""Run a `mancala prove` proof on a Dask cluster.

The proof's state is its ledger (JSON lines, one finished task each). This
driver is the only writer of the ledger; the workers only run tasks:

    loop:
        open = `mancala prove GAME --ledger L --tasks`      (JSON lines)
        submit each open task not yet running:
            worker: `mancala prove GAME --ledger L --run-task TASK`
                    -> one ledger line on stdout
        as each finishes: `mancala prove GAME --ledger L --record` < line
    until no task is open and none is running.

A killed worker loses only its task (Dask runs it again); a killed driver
loses only the tasks under way: run the same command to go on. Any
`mancala prove` option after `--` is passed to every call (the tables,
--max-table-seeds, --task-nodes, --task-seconds, --threads, --tt-mb, ...). Workers must
see the same `mancala` binary and table directory (shared storage on a
cluster); give them --table-memory-mb 0 so that the tables are read
through the page cache that the worker processes of one machine share.

    python3 dist/dask_prove.py --workers 2 -- kalah:5:4 --ledger k54.jsonl --threads 1
    python3 dist/dask_prove.py --scheduler tcp://head:8786 -- kalah:6:6 \\
        --ledger docs/kalah-6-6/ledger.jsonl --db /shared/db --max-table-seeds 30

Prints one JSON object at the end: the ledger's status (`--status --json`)
and the driver's counts (tasks run, seconds, workers).
"""

import argparse
import json
import subprocess
import sys
import time


def run_task(mancala, args, task):
    """On a worker: prove one task, return its ledger line."""
    out = subprocess.run(
        [mancala, "prove", *args, "--run-task", task, "--quiet"],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        raise RuntimeError(f"mancala prove --run-task failed ({out.returncode}): {out.stderr.strip()}")
    return out.stdout.strip()


def call(mancala, args, *extra, stdin=None):
    out = subprocess.run(
        [mancala, "prove", *args, *extra], input=stdin, capture_output=True, text=True
    )
    if out.returncode != 0:
        sys.exit(f"mancala prove {' '.join(extra)} failed ({out.returncode}): {out.stderr.strip()}")
    return out.stdout


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scheduler", help="address of a running Dask scheduler (default: start a local cluster)")
    p.add_argument("--workers", type=int, default=2, help="workers of the local cluster (default 2)")
    p.add_argument("--mancala", default="mancala", help="the mancala binary (default: on PATH)")
    p.add_argument("args", nargs=argparse.REMAINDER, help="-- then the arguments of `mancala prove`")
    a = p.parse_args()
    args = a.args[1:] if a.args[:1] == ["--"] else a.args
    if not args:
        p.error("give the arguments of `mancala prove` after --, e.g. -- kalah:5:4 --ledger k54.jsonl")

    from dask.distributed import Client, LocalCluster, wait

    start = time.time()
    if a.scheduler:
        client = Client(a.scheduler)
    else:
        cluster = LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    workers = len(client.scheduler_info()["workers"])
    running = {}
    ran = 0
    while True:
        tasks = [t for t in call(a.mancala, args, "--tasks").splitlines() if t.strip()]
        for t in tasks:
            if t not in running:
                running[t] = client.submit(run_task, a.mancala, args, t, pure=False)
        if not running:
            break
        wait(list(running.values()), return_when="FIRST_COMPLETED")
        lines = []
        for t, f in list(running.items()):
            if f.done():
                lines.append(f.result())
                del running[t]
        ran += len(lines)
        call(a.mancala, args, "--record", "--quiet", stdin="\n".join(lines) + "\n")
    status = json.loads(call(a.mancala, args, "--status", "--json"))
    status["driver"] = {"tasks_run": ran, "seconds": round(time.time() - start, 3), "workers": workers}
    print(json.dumps(status))
    client.close()


if __name__ == "__main__":
    main()
