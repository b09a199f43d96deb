#!/usr/bin/env python3
"""The time from a request of `/api/v1/search` on the start of Kalah(6,6) under
capture-needs-opposite (a book still being proven) to the first event that
holds the book's exact value, +4, for two `mancala` binaries side by side
(alternating, a fresh server and table directory each run; stdlib only):

    python3 benches/book_first_value.py OLD_BINARY NEW_BINARY [RUNS]
"""
import json, subprocess, sys, tempfile, time, urllib.request, statistics, socket

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

def one(binary, path):
    with tempfile.TemporaryDirectory() as d:
        port = free_port()
        p = subprocess.Popen([binary, "serve", "--addr", f"127.0.0.1:{port}", "--db", d, "--build-limit", "0"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(200):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/games", timeout=1).read(); break
                except Exception:
                    time.sleep(0.05)
            t0 = time.monotonic(); first = None; name = None
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as r:
                for raw in r:
                    line = raw.decode().strip()
                    if line.startswith("event: "): name = line[7:]
                    elif line.startswith("data: "):
                        a = json.loads(line[6:])
                        if first is None and a.get("exact") and a.get("value") == 4:
                            first = (time.monotonic() - t0, name)
                        if name in ("done", "error"): break
            return first, time.monotonic() - t0
        finally:
            p.terminate(); p.wait()

path = "/api/v1/search?game=kalah:6:6:capture-needs-opposite&ms=5000"
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
res = {"old": [], "new": []}
for i in range(runs):
    for tag, b in (("old", sys.argv[1]), ("new", sys.argv[2])) if i % 2 == 0 else (("new", sys.argv[2]), ("old", sys.argv[1])):
        first, total = one(b, path)
        res[tag].append((first, total))
        print(tag, "first exact value:", first, "stream end: %.2f s" % total, flush=True)
for tag in res:
    firsts = [f[0][0] for f in res[tag] if f[0]]
    print(tag, "median first exact value: %s s" % (("%.3f" % statistics.median(firsts)) if firsts else "never"),
          "median stream end: %.2f s" % statistics.median(t for _, t in res[tag]))
