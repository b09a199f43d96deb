"""The course assignment's published figures against `mancala assignment`
(docs/ASSIGNMENT.md). Stdlib only:

    python3 benches/assignment/run.py [MANCALA]

1. The sample traverse log (minimax, cut-off depth 2, a 2 x 3 board whose
   input is a figure lost from the text), line by line against the log of
   the start of Kalah(3,3) (one of the 54 boards that give it, see
   docs/ASSIGNMENT.md), under both readings of the log.
2. The evaluation function's worked examples on the board of the first
   figure, 2 x 6 pits of 4 stones (the text: E(B5) = 1, E(B2) = 0, and B4
   earns another move): the root's children in a cut-off depth 1 log.

MANCALA is the binary (default target/release/mancala). Exits 1 if a
published figure is not reproduced under the default (sample) reading.
"""

import difflib
import os
import subprocess
import sys
import tempfile

# The sample traverse log as published, header first.
SAMPLE_LOG = """Node,Depth,Value
B2,1,Infinity
B3,1,Infinity
A2,2,1
B3,1,1
A3,2,1
B3,1,1
A4,2,1
B3,1,1
B2,1,1
B4,1,Infinity
A2,2,1
B4,1,1
A3,2,1
B4,1,1
A4,2,1
B4,1,1
B2,1,1
root,0,1
B3,1,Infinity
A2,2,0
B3,1,0
A3,2,0
B3,1,0
A4,2,0
B3,1,0
root,0,1
B4,1,Infinity
A2,2,0
B4,1,0
A3,2,0
B4,1,0
A4,2,0
B4,1,0
root,0,1
"""


def log_of(mancala: str, text: str, reading: str) -> str:
    d = tempfile.mkdtemp()
    path = os.path.join(d, "input.txt")
    with open(path, "w") as f:
        f.write(text)
    subprocess.run([mancala, "assignment", path, "--out-dir", d, "--reading", reading],
                   check=True, capture_output=True)
    with open(os.path.join(d, "traverse_log.txt")) as f:
        return f.read()


def main() -> None:
    mancala = sys.argv[1] if len(sys.argv) > 1 else "target/release/mancala"
    failed = 0
    published = SAMPLE_LOG.splitlines()[1:]
    print("## The sample traverse log (Kalah(3,3)'s start: task 2, player 1, depth 2)")
    print()
    print("| reading | lines published | lines equal, in place | lines matched in order (difflib) | byte for byte |")
    print("|---|---:|---:|---:|---|")
    for reading in ("sample", "textbook"):
        log = log_of(mancala, "2\n1\n2\n3 3 3\n3 3 3\n0\n0\n", reading)
        lines = log.splitlines()[1:]
        same = sum(a == b for a, b in zip(published, lines))
        matched = sum(b.size for b in difflib.SequenceMatcher(a=published, b=lines, autojunk=False).get_matching_blocks())
        print(f"| {reading} | {len(published)} | {same} of {len(lines)} | {matched} | {'yes' if log == SAMPLE_LOG else 'no'} |")
        if reading == "sample" and log != SAMPLE_LOG:
            failed += 1
    print()
    print("## The evaluation function's examples (2 x 6 pits of 4 stones, player 1)")
    print()
    log = log_of(mancala, "2\n1\n1\n4 4 4 4 4 4\n4 4 4 4 4 4\n0\n0\n", "sample")
    rows = [line.split(",") for line in log.splitlines()[1:]]
    first = {}
    children = set()
    for i, (node, depth, value) in enumerate(rows):
        if depth == "1" and node not in first and (i == 0 or rows[i - 1][0] == "root"):
            first[node] = (i, value)
    for node, (i, _) in first.items():
        if i + 1 < len(rows) and rows[i + 1][0] != "root":
            children.add(node)
    print("| move | published | measured E (leaf value) | another move |")
    print("|---|---|---|---|")
    expected = {"B2": "0", "B5": "1"}
    for node in ("B2", "B3", "B4", "B5", "B6", "B7"):
        _, value = first[node]
        extra = node in children
        pub = f"E = {expected[node]}" if node in expected else ("another move" if node == "B4" else "-")
        shown = "-" if extra else value
        print(f"| {node} | {pub} | {shown} | {'yes' if extra else 'no'} |")
        if node in expected and value != expected[node]:
            failed += 1
        if (node == "B4") != extra:
            failed += 1
    print()
    print(f"E(B5) = {first['B5'][1]}, E(B2) = {first['B2'][1]}, B4 earns another move: {'yes' if 'B4' in children else 'no'}")
    print(f"{'all published figures reproduced' if not failed else f'{failed} published figures not reproduced'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
