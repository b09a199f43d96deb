"""Every Python example of docs/python.md and python/README.md (the
package's page on PyPI) runs as written (issue 61: `oracle.play("kalah:6:4",
moves="2-5")` did not) and gives what its comments say it gives
(doc_runner.py). The examples run one after the other in one scratch
directory, as a reader working through the page would (the tables they
build in `db/` are built once). An example that needs OpenSpiel is skipped
without it unless MANCALA_REQUIRE_OPENSPIEL is set (as .ci/run does). The
README's examples run in test_api.py."""

import importlib.util
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
DOCS = ["docs/python.md", "python/README.md"]


def python_blocks(text):
    """The ```python blocks of ``text``: (the line they start on, the code)."""
    out = []
    for m in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M):
        out.append((text[: m.start()].count("\n") + 2, m.group(1)))
    return out


BLOCKS = [
    (doc, line, code)
    for doc in DOCS
    for line, code in python_blocks(open(os.path.join(ROOT, doc), encoding="utf-8").read())
]


def run(code, cwd):
    return subprocess.run(
        [sys.executable, os.path.join(HERE, "doc_runner.py")],
        input=code,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=900,
    )


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("docs")


def test_the_documents_have_their_examples():
    assert len([b for b in BLOCKS if b[0] == "docs/python.md"]) >= 3
    assert len([b for b in BLOCKS if b[0] == "python/README.md"]) >= 1


@pytest.mark.parametrize("doc,line,code", BLOCKS, ids=[f"{d}:{n}" for d, n, _ in BLOCKS])
def test_every_python_example_runs(workdir, doc, line, code):
    if re.search(r"\b(pyspiel|open_spiel)\b", code) and not os.environ.get("MANCALA_REQUIRE_OPENSPIEL"):
        if importlib.util.find_spec("pyspiel") is None:
            pytest.skip("needs OpenSpiel (pip install open_spiel)")
    out = run(code, workdir)
    assert out.returncode == 0, f"{doc}, the example at line {line}:\n{out.stderr[-3000:]}"


def test_a_broken_example_fails(tmp_path):
    """The runner catches what a reader would: a call that raises, a
    printed value and a bare expression that differ from their comments;
    prose comments are not read as values."""
    ok = run('x = 3\nprint(x + 1)   # 4: four\nx * 2   # 6\nx   # the value of x\n', tmp_path)
    assert ok.returncode == 0, ok.stderr
    raises = run('import mancala_solver as ms\nms.Oracle(db="db").play("kalah:6:4", moves="2-5")\n', tmp_path)
    assert raises.returncode != 0 and "line 2 (" in raises.stderr and "raised BadInput" in raises.stderr, raises.stderr
    printed = run("print(2 + 2)   # 5: five\n", tmp_path)
    assert printed.returncode != 0 and "its comment says '5: five'" in printed.stderr, printed.stderr
    bare = run("x = 3\nx * 2   # 7: seven\n", tmp_path)
    assert bare.returncode != 0 and "gave 6" in bare.stderr, bare.stderr
