#!/usr/bin/env python3
"""Run a `mancala prove` proof on a Dask cluster.

The proof's state is its ledger (JSON lines, one finished task each). This
driver writes the ledger through `mancala prove --record`; the workers only
run tasks:

    loop:
        open = `mancala prove GAME --ledger L --tasks`      (JSON lines)
        submit each open task not yet running:
            worker: `mancala prove GAME --ledger L --run-task TASK`
                    -> one ledger line on stdout
        as tasks finish: `mancala prove GAME --ledger L --record` < their lines
    until no task is open and none is running.

Each finished task's line is recorded as soon as it comes back. A task
whose process fails or is killed (or whose worker dies) is run again, up to
--retries times (default 2); one that still fails is given up and named at
the end (exit code 1) while the other tasks go on, and the ledger keeps
every line recorded. A killed driver loses only the tasks under way: run
the same command to go on. Any `mancala prove` option after `--` is passed
to every call (the tables, --max-table-seeds, --task-nodes, --task-seconds,
--threads, --tt-mb, ...; --json and --quiet are the driver's own and may be
given: it always prints JSON); the calls that are the driver's to make
(--tasks, --run-task, --record, --status, --outline, --check) are refused.
Workers must see the same `mancala` binary and table directory (shared
storage on a cluster); give them --table-memory-mb 0 so that the tables are
read through the page cache that the worker processes of one machine share.

    python3 dist/dask_prove.py --workers 2 -- kalah:5:4 --ledger k54.jsonl --threads 1
    python3 dist/dask_prove.py --scheduler tcp://head:8786 -- kalah:6:6 \\
        --ledger docs/kalah-6-6/ledger.jsonl --db /shared/db --max-table-seeds 30

Prints one JSON object at the end: the ledger's status (`--status --json`)
and the driver's counts (tasks run, retries, tasks given up, seconds,
workers). Exit codes: 0 done, 1 a task or a call failed, 2 bad usage.
"""

import argparse
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import time

# The options whose calls the driver makes itself.
DRIVER_CALLS = ("--tasks", "--run-task", "--record", "--status", "--outline", "--check")
# Options the driver gives to its calls itself (accepted after --, dropped).
DRIVER_FLAGS = ("--json", "--quiet")


def how_it_ended(code):
    """A process's return code in words."""
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"killed by {name}"
    return f"exit code {code}"


def run_task(mancala, args, task):
    """On a worker: prove one task, return its ledger line."""
    out = subprocess.run(
        [mancala, "prove", *args, "--run-task", task, "--quiet"],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        said = out.stderr.strip() or "no message"
        raise RuntimeError(f"mancala prove --run-task: {how_it_ended(out.returncode)}: {said}")
    line = out.stdout.strip()
    if not line:
        raise RuntimeError("mancala prove --run-task printed no ledger line")
    return line


class CallFailed(Exception):
    """A `mancala prove` call of the driver's failed."""

    def __init__(self, what, code, said):
        super().__init__(f"mancala prove {what}: {how_it_ended(code)}: {said}")
        # mancala's own usage errors (2) stay usage errors.
        self.code = 2 if code == 2 else 1


def call(mancala, args, *extra, stdin=None):
    """One `mancala prove` call of the driver's: its stdout."""
    try:
        out = subprocess.run(
            [mancala, "prove", *args, *extra], input=stdin, capture_output=True, text=True
        )
    except OSError as e:
        raise CallFailed(" ".join(extra), 1, str(e)) from None
    if out.returncode != 0:
        raise CallFailed(" ".join(extra), out.returncode, out.stderr.strip() or "no message")
    return out.stdout


def arguments():
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Example: python3 dist/dask_prove.py --workers 2 --mancala target/release/mancala "
        "-- kalah:3:2 --ledger k32.jsonl --task-seconds 0",
    )
    p.add_argument("--scheduler", help="address of a running Dask scheduler (default: start a local cluster)")
    p.add_argument("--workers", type=int, default=2, help="workers of the local cluster (default 2)")
    p.add_argument("--mancala", default="mancala", help="the mancala binary (default: on PATH)")
    p.add_argument(
        "--retries", type=int, default=2, help="times a failed or killed task is run again before it is given up (default 2)"
    )
    p.add_argument("args", nargs=argparse.REMAINDER, help="-- then the arguments of `mancala prove`")
    a = p.parse_args()
    args = a.args[1:] if a.args[:1] == ["--"] else a.args
    if not args:
        p.error("give the arguments of `mancala prove` after --, e.g. -- kalah:5:4 --ledger k54.jsonl")
    if a.scheduler is None and a.workers < 1:
        p.error(f"--workers {a.workers}: a local cluster needs at least 1 worker")
    if a.retries < 0:
        p.error(f"--retries {a.retries}: give 0 or more")
    for own in DRIVER_CALLS:
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
    a.args = [x for x in args if x not in DRIVER_FLAGS]
    return a


def main():
    a = arguments()
    args = a.args
    try:
        # Checks the arguments and the ledger before a cluster is started.
        first = call(a.mancala, args, "--tasks")
    except CallFailed as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(e.code)
    try:
        from dask.distributed import Client, LocalCluster, wait
    except ImportError as e:
        sys.exit(f"error: dask_prove.py needs Dask ({e}): pip install 'dask[distributed]'")

    start = time.time()
    if a.scheduler:
        client = Client(a.scheduler)
    else:
        cluster = LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.CRITICAL)
        client = Client(cluster)
    workers = len(client.scheduler_info()["workers"])
    running = {}  # task -> future
    failures = {}  # task -> failed runs so far
    given_up = {}  # task -> why its last run failed
    counts = {"ran": 0, "retries": 0}

    def submit(task):
        running[task] = client.submit(run_task, a.mancala, args, task, pure=False)

    def refill(listing=None):
        if listing is None:
            listing = call(a.mancala, args, "--tasks")
        for t in listing.splitlines():
            if t.strip() and t not in running and t not in given_up:
                submit(t)

    def record(lines):
        try:
            call(a.mancala, args, "--record", "--quiet", stdin="\n".join(lines) + "\n")
        except CallFailed as e:
            print("the lines not recorded follow:\n" + "\n".join(lines), file=sys.stderr)
            raise e
        counts["ran"] += len(lines)

    try:
        refill(first)
        while running:
            wait(list(running.values()), return_when="FIRST_COMPLETED")
            lines = []
            for t, f in list(running.items()):
                if not f.done():
                    continue
                del running[t]
                try:
                    lines.append(f.result())
                except KeyboardInterrupt:
                    raise
                except BaseException as e:  # a failed or killed run, a lost worker
                    n = failures[t] = failures.get(t, 0) + 1
                    if n <= a.retries:
                        counts["retries"] += 1
                        print(f"task {t} failed ({e}); running it again (retry {n} of {a.retries})", file=sys.stderr)
                        submit(t)
                    else:
                        given_up[t] = str(e)
                        print(f"task {t} failed {n} times ({e}); given up, the other tasks go on", file=sys.stderr)
            # Recorded at once: a driver killed later loses none of them.
            if lines:
                record(lines)
            refill()
        status = json.loads(call(a.mancala, args, "--status", "--json"))
    except CallFailed as e:
        client.cancel(list(running.values()))
        client.close()
        print(
            f"error: {e}; the ledger keeps every task recorded ({counts['ran']} this run): "
            "run the same command to go on",
            file=sys.stderr,
        )
        sys.exit(e.code)
    except KeyboardInterrupt:
        client.cancel(list(running.values()))
        client.close()
        print(
            f"stopped: the ledger keeps every task recorded ({counts['ran']} this run): "
            "run the same command to go on",
            file=sys.stderr,
        )
        sys.exit(130)
    open_now = {json.dumps(t, separators=(",", ":"), sort_keys=True) for t in status.get("open_tasks", [])}
    still_open = [t for t in given_up if json.dumps(json.loads(t), separators=(",", ":"), sort_keys=True) in open_now]
    status["driver"] = {
        "tasks_run": counts["ran"],
        "retries": counts["retries"],
        "given_up": [{"task": json.loads(t), "error": e} for t, e in given_up.items()],
        "seconds": round(time.time() - start, 3),
        "workers": workers,
    }
    print(json.dumps(status))
    client.close()
    if still_open:
        sys.exit(
            f"error: {len(still_open)} task(s) failed {a.retries + 1} times and were given up, so the proof "
            f"is not finished (the last error: {given_up[still_open[-1]]}); the ledger keeps the "
            f"{counts['ran']} tasks recorded: fix the cause and run the same command to go on"
        )


if __name__ == "__main__":
    main()
