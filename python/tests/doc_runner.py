"""Runs one Python example of the documentation (read from stdin) as a
reader would paste it, statement by statement, and checks what its
comments say it gives: a ``print(...)`` whose line ends in a comment must
print that comment's text, or a value equal to the literal before the
comment's first colon (``# 8: the first player wins by 8``); a bare
expression whose comment starts with such a literal must be equal to it.
Other comments are prose. Exits non-zero, naming the line, on the first
statement that raises or gives something else than its comment says.

Used by test_docs.py; not a test module itself."""

import ast
import contextlib
import io
import sys
import tokenize
import traceback


def comments(code):
    """The comment at the end of each line, by line number."""
    out = {}
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        if tok.type == tokenize.COMMENT:
            out[tok.start[0]] = tok.string[1:].strip()
    return out


def literal(text):
    """The Python literal that ``text`` is, or that it starts with before a
    colon; None when neither."""
    for candidate in (text, text.split(":")[0]):
        try:
            return (ast.literal_eval(candidate.strip()),)
        except (ValueError, SyntaxError):
            pass
    return None


def is_print(node):
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and getattr(node.value.func, "id", None) == "print"


def main():
    code = sys.stdin.read()
    tree = ast.parse(code)
    notes = comments(code)
    ns = {"__name__": "__main__"}
    for node in tree.body:
        where = f"line {node.lineno} ({code.splitlines()[node.lineno - 1].strip()})"
        try:
            check(node, notes.get(node.end_lineno), where, ns)
        except Exception as e:
            traceback.print_exc()
            sys.exit(f"{where}: raised {type(e).__name__}: {e}")


def check(node, note, where, ns):
    """Run one statement; exit saying what differs from its comment."""
    if is_print(node) and note is not None:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(ast.Module([node], []), "<example>", "exec"), ns)
        printed = out.getvalue().strip()
        sys.stdout.write(out.getvalue())
        want = literal(note)
        if printed != note and not (want is not None and literal(printed) == want):
            sys.exit(f"{where}: printed {printed!r}, its comment says {note!r}")
    elif isinstance(node, ast.Expr) and note is not None and literal(note) is not None:
        value = eval(compile(ast.Expression(node.value), "<example>", "eval"), ns)
        if (value,) != literal(note):
            sys.exit(f"{where}: gave {value!r}, its comment says {note!r}")
    else:
        exec(compile(ast.Module([node], []), "<example>", "exec"), ns)

if __name__ == "__main__":
    main()
