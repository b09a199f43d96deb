#!/usr/bin/env python3
"""The time from a request of `/api/v1/search` on a position of Kalah(6,6) under
capture-needs-opposite that its book holds in part (after South's pit 0, an
extra turn, and pit 2, the best line: the book holds the position and
North's best move, not North's other moves, which lie beyond its first turn;
until 2026-11-30 the start was such a position) to the first event that
holds the book's exact value, -4 for North, for two `mancala` binaries side by side
(alternating, a fresh server and table directory each run; stdlib only):

    python3 benches/book_first_value.py OLD_BINARY NEW_BINARY [RUNS]
"""
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

PATH = (
    "/api/v1/search?game=kalah:6:6:capture-needs-opposite"
    "&position=7%207%207%206%206%206%200%200%207%200%208%208%208%202&ms=5000"
)
BOOK_VALUE = -4


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(base):
    """Until the server answers, at most 10 s."""
    for _ in range(200):
        try:
            urllib.request.urlopen(f"{base}/api/v1/games", timeout=1).read()
            return
        except OSError:
            time.sleep(0.05)
    sys.exit(f"the server at {base} did not answer within 10 s")


def one(binary):
    """(seconds to the first event with the book's exact value and its
    name, or None; seconds to the end of the stream) on a fresh server."""
    with tempfile.TemporaryDirectory() as db:
        port = free_port()
        server = subprocess.Popen(
            [binary, "serve", "--addr", f"127.0.0.1:{port}", "--db", db, "--build-limit", "0"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            wait_for(base)
            start = time.monotonic()
            first, name = None, None
            with urllib.request.urlopen(base + PATH, timeout=60) as stream:
                for raw in stream:
                    line = raw.decode().strip()
                    if line.startswith("event: "):
                        name = line[len("event: "):]
                    elif line.startswith("data: "):
                        a = json.loads(line[len("data: "):])
                        if first is None and a.get("exact") and a.get("value") == BOOK_VALUE:
                            first = (time.monotonic() - start, name)
                        if name in ("done", "error"):
                            break
            return first, time.monotonic() - start
        finally:
            server.terminate()
            server.wait()


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    binaries = {"old": sys.argv[1], "new": sys.argv[2]}
    runs = int(sys.argv[3]) if len(sys.argv) == 4 else 3
    seen = {"old": [], "new": []}
    for i in range(runs):
        order = ("old", "new") if i % 2 == 0 else ("new", "old")
        for tag in order:
            first, total = one(binaries[tag])
            seen[tag].append((first, total))
            print(tag, "first exact value:", first, "stream end: %.2f s" % total, flush=True)
    for tag, results in seen.items():
        firsts = [f[0] for f, _ in results if f]
        median_first = "%.3f s" % statistics.median(firsts) if firsts else "never"
        median_end = statistics.median(t for _, t in results)
        print(tag, "median first exact value:", median_first, "median stream end: %.2f s" % median_end)


if __name__ == "__main__":
    main()
