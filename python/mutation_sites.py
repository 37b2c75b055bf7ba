"""Mutation sites of Python sources, found with the interpreter's own parser (ast) and tokenizer (tokenize).

yolo eval --mutate runs this as a subprocess (python3 -I -B). Input on stdin: a JSON list of {"file", "text"}.
Output on stdout: {"sites": [...], "skipped": [...]}; each site is {file, start, end, replacement, kind, description}
with start/end as offsets in code points into the text given, so the caller replaces exactly that span. A file
that does not parse is skipped with the reason (it has no sites). The same operators as the TypeScript builder
(src/eval/mutation-sites.ts): flipped comparison or arithmetic, off-by-one, negated condition, dropped statement,
swapped arguments. It never reads or writes a file: the text comes and goes through the pipes.

With the argument `--canaries` it lists canary sites of Python test files instead (yolo eval --canaries): the literal
expected value of `assert <actual> == <literal>` and `self.assertEqual(<actual>, <literal>)`, each with a replacement
that contradicts it (a number plus one, a string with a character added, a boolean negated), same output shape.
"""

import ast
import io
import json
import sys
import tokenize

COMPARISON = {ast.Lt: ("<", ">="), ast.LtE: ("<=", ">"), ast.Gt: (">", "<="), ast.GtE: (">=", "<"), ast.Eq: ("==", "!="), ast.NotEq: ("!=", "==")}
BOUNDARY = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
ARITHMETIC = {ast.Add: ("+", "-"), ast.Sub: ("-", "+"), ast.Mult: ("*", "/"), ast.Div: ("/", "*"), ast.FloorDiv: ("//", "*"), ast.Mod: ("%", "*")}


def line_starts(text):
    """Offsets (code points) where each line begins, splitting as Python's tokenizer does: \\r\\n, \\r, \\n."""
    starts = [0]
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\r" and i + 1 < n and text[i + 1] == "\n":
            i += 1
        if c in "\r\n":
            starts.append(i + 1)
        i += 1
    return starts


class Source:
    """One file's text with the position arithmetic: ast's (line, UTF-8 byte column) and tokenize's (line, column)."""

    def __init__(self, file, text):
        self.file, self.text = file, text
        self.starts = line_starts(text)
        self.sites = []

    def line_text(self, line):
        end = self.starts[line] if line < len(self.starts) else len(self.text)
        return self.text[self.starts[line - 1]:end]

    def from_ast(self, line, byte_col):
        prefix = self.line_text(line).encode("utf-8")[:byte_col].decode("utf-8", errors="ignore")
        return self.starts[line - 1] + len(prefix)

    def span(self, node):
        return self.from_ast(node.lineno, node.col_offset), self.from_ast(node.end_lineno, node.end_col_offset)

    def segment(self, node):
        start, end = self.span(node)
        return self.text[start:end]

    def add(self, start, end, replacement, kind, what):
        line = next(i for i in range(len(self.starts), 0, -1) if self.starts[i - 1] <= start)
        self.sites.append({"file": self.file, "start": start, "end": end, "replacement": replacement, "kind": kind, "description": f"{self.file}:{line}: {what}"})


def operator_tokens(src):
    """Every operator token with its span in code points, in order (comments and strings are other tokens)."""
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(src.text, newline="").readline):
        if tok.type == tokenize.OP:
            start = src.starts[tok.start[0] - 1] + tok.start[1]
            end = src.starts[tok.end[0] - 1] + tok.end[1]
            out.append((start, end, tok.string))
    return out


def operator_between(ops, left_end, right_start, symbol):
    """The span of the operator `symbol` written between two operands (parentheses around them are skipped)."""
    for start, end, string in ops:
        if start >= left_end and end <= right_start and string == symbol:
            return start, end
        if start >= right_start:
            break
    return None


def stringy(node):
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)))


def is_docstring(stmt, parent):
    return (
        isinstance(parent, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and parent.body
        and parent.body[0] is stmt
        and isinstance(stmt, ast.Expr)
        and stringy(stmt.value)
    )


def binary_sites(src, ops, node):
    """Comparisons flipped and shifted by one; arithmetic swapped for its opposite (not string formatting)."""
    if isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        for i, op in enumerate(node.ops):
            pair = COMPARISON.get(type(op))
            if not pair:
                continue
            where = operator_between(ops, src.span(operands[i])[1], src.span(operands[i + 1])[0], pair[0])
            if where:
                src.add(*where, pair[1], "flip-comparison", f"{pair[0]} → {pair[1]}")
                if pair[0] in BOUNDARY:
                    src.add(*where, BOUNDARY[pair[0]], "off-by-one", f"{pair[0]} → {BOUNDARY[pair[0]]}")
    elif isinstance(node, ast.BinOp) and type(node.op) in ARITHMETIC and not stringy(node.left) and not stringy(node.right):
        symbol, flipped = ARITHMETIC[type(node.op)]
        where = operator_between(ops, src.span(node.left)[1], src.span(node.right)[0], symbol)
        if where:
            src.add(*where, flipped, "flip-arithmetic", f"{symbol} → {flipped}")


def visit(src, ops, node, parent):
    binary_sites(src, ops, node)
    if isinstance(node, ast.Constant) and type(node.value) is int and src.segment(node).isdigit() and not isinstance(parent, ast.Dict):
        start, end = src.span(node)
        src.add(start, end, str(node.value + 1), "off-by-one", f"{node.value} → {node.value + 1}")
    elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
        start, end = src.span(node.test)
        what = "?: condition negated" if isinstance(node, ast.IfExp) else "condition negated"
        src.add(start, end, f"not ({src.text[start:end]})", "negate-condition", what)
    elif isinstance(node, ast.Call) and len(node.args) >= 2 and not any(isinstance(a, ast.Starred) for a in node.args[:2]):
        a, b = node.args[0], node.args[1]
        (a_start, a_end), (b_start, b_end) = src.span(a), src.span(b)
        replacement = src.text[b_start:b_end] + src.text[a_end:b_start] + src.text[a_start:a_end]
        src.add(a_start, b_end, replacement, "swap-arguments", f"arguments swapped in {src.segment(node.func)[:40]}(…)")
    if isinstance(node, (ast.Expr, ast.Assign, ast.AugAssign)) and isinstance(parent, ast.AST) and not is_docstring(node, parent):
        start, end = src.span(node)
        src.add(start, end, "pass", "drop-statement", f"statement dropped: {src.text[start:end][:60]}")
    for child in ast.iter_child_nodes(node):
        visit(src, ops, child, node)


def sites_of(file, text):
    src = Source(file, text)
    tree = ast.parse(text, filename=file)
    ops = operator_tokens(src)
    for child in ast.iter_child_nodes(tree):
        visit(src, ops, child, tree)
    return src.sites


ASSERT_EQUAL = {"assertEqual", "assertEquals"}


def expected_of(node):
    """The expected-value operand of an equality assertion, or None when the node is no assertion this knows."""
    if isinstance(node, ast.Assert) and isinstance(node.test, ast.Compare) and len(node.test.ops) == 1 and isinstance(node.test.ops[0], ast.Eq):
        return node.test.comparators[0]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ASSERT_EQUAL
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "self"
        and len(node.args) >= 2
    ):
        return node.args[1]
    return None


def contradiction(src, node):
    """Source text of a literal contradicting `node`, or None when it is no literal this flips."""
    if not isinstance(node, ast.Constant):
        return None
    value = node.value
    if isinstance(value, bool):
        return "False" if value else "True"
    if type(value) is int and src.segment(node).isdigit():
        return str(value + 1)
    if isinstance(value, str):
        return repr(value + "!")
    return None


def canary_sites_of(file, text):
    src = Source(file, text)
    for node in ast.walk(ast.parse(text, filename=file)):
        expected = expected_of(node)
        flipped = contradiction(src, expected) if expected is not None else None
        if flipped is not None:
            start, end = src.span(expected)
            call = " ".join(src.segment(node).split())[:80]
            src.add(start, end, flipped, "canary", f"{call} expects {src.segment(expected)} → {flipped}")
    return sorted(src.sites, key=lambda site: site["start"])


def main():
    if sys.version_info < (3, 8):
        sys.stderr.write("yolo's mutation of Python needs Python 3.8 or newer (ast end positions)\n")
        return 3
    find = canary_sites_of if sys.argv[1:] == ["--canaries"] else sites_of
    sites, skipped = [], []
    for entry in json.load(sys.stdin):
        try:
            sites.extend(find(entry["file"], entry["text"]))
        except (SyntaxError, ValueError, tokenize.TokenError) as error:
            skipped.append({"file": entry["file"], "reason": f"{type(error).__name__}: {error}"})
    json.dump({"sites": sites, "skipped": skipped}, sys.stdout, ensure_ascii=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
