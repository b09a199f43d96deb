"""What the study re-runs share: the statistics of a proportion and running
`mancala` with its JSON report kept, so that a stopped run resumes."""
import json
import math
import os
import subprocess
import sys
import time


def wilson(x, n, z=1.959963984540054):
    """Wilson 95% interval of x successes in n trials."""
    if n == 0:
        return (0.0, 1.0)
    p = x / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def two_sample_p(x1, n1, x2, n2):
    """Two-sided p-value of the pooled two-proportion z-test."""
    p = (x1 + x2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    return math.erfc(abs(x1 / n1 - x2 / n2) / se / math.sqrt(2))


def holm(pvalues):
    """Which of `pvalues` Holm's step-down method rejects at 5%: a list of
    booleans in the order of `pvalues`."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    rejected = [False] * len(pvalues)
    for rank, i in enumerate(order):
        if pvalues[i] >= 0.05 / (len(pvalues) - rank):
            break
        rejected[i] = True
    return rejected


def cached_run(binary, cmd, out, fresh=False, threads=0):
    """The JSON report of `binary CMD`: read from `out` when it holds the
    report of the same command (and not `fresh`), else run and saved there
    atomically. `_seconds` and `_command` are added; `_reused` when read."""
    if os.path.exists(out) and not fresh:
        try:
            with open(out) as f:
                report = json.load(f)
            if report.get("_command") == " ".join(cmd):
                report["_reused"] = True
                return report
        except (OSError, ValueError):
            pass
    full = [binary] + cmd + (["--threads", str(threads)] if threads else [])
    t0 = time.time()
    r = subprocess.run(full, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(full)} failed: {r.stderr.strip()}")
    report = json.loads(r.stdout)
    report["_seconds"] = time.time() - t0
    report["_command"] = " ".join(cmd)
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(report, f, indent=1)
    os.replace(tmp, out)
    return report
