"""The compiled build's second source of truth, checked against the first.

Cython reads a ``.pxd`` beside each compiled ``.py`` and ignores, without a word, a
``@cython.locals`` name that the function does not use (a misspelt or renamed local
simply stays a Python object) and a ``.pxd`` member or method the class lost. So every
name the C types mention must exist in the ``.py``: each ``@cython.locals`` name is an
argument or an assigned local of its function (in the ``.pxd`` or on the ``.py``
decorator), each ``cdef``/``cpdef`` member of a ``.pxd`` class is an attribute the ``.py``
class sets, each declared method or function is defined there, and each module-level
``cdef`` is assigned.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engine.build import COMPILED_MODULES, ROOT

pytestmark = pytest.mark.both_builds

_C_WORDS = {"cdef", "cpdef", "public", "readonly", "inline", "const", "unsigned", "signed",
            "long", "short", "int", "char", "bint", "double", "float", "object", "list", "dict",
            "tuple", "set", "void", "Py_ssize_t", "size_t", "noexcept", "except", "nogil"}


@dataclass
class PxdClass:
    name: str
    members: list[str] = field(default_factory=list)
    methods: list[str] = field(default_factory=list)


@dataclass
class Pxd:
    """What a ``.pxd`` declares: classes, module functions and variables, and the
    ``@cython.locals`` names of each function (keyed ``Class.method`` or ``function``)."""
    classes: dict[str, PxdClass] = field(default_factory=dict)
    functions: list[str] = field(default_factory=list)
    variables: list[str] = field(default_factory=list)
    locals: dict[str, list[str]] = field(default_factory=dict)


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(indent, line) with comments dropped and bracketed continuations joined."""
    out: list[tuple[int, str]] = []
    pending, indent, depth = "", 0, 0
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if depth == 0:
            indent = len(line) - len(line.lstrip())
            pending = line.strip()
        else:
            pending += " " + line.strip()
        depth += line.count("(") + line.count("[") - line.count(")") - line.count("]")
        if depth <= 0:
            out.append((indent, pending))
            pending, depth = "", 0
    return out


def _declared_names(decl: str) -> list[str]:
    """The variable names of ``cdef [public] TYPE a, b[4], c``: the last word of the first
    comma part, then every other part."""
    decl = re.sub(r"\[[^\]]*\]", "", decl)       # array sizes and memoryview axes
    parts = [p.strip() for p in decl.split(",")]
    names = [parts[0].split()[-1]] + [p.split()[-1] for p in parts[1:] if p]
    return [n.lstrip("*") for n in names]


def parse_pxd(text: str) -> Pxd:
    pxd = Pxd()
    cls: PxdClass | None = None
    pending_locals: list[str] | None = None
    extern = False
    for indent, line in _logical_lines(text):
        if indent == 0:
            cls = None
            # C declarations of an extern block name nothing of the .py.
            extern = line.startswith("cdef extern")
        if extern:
            continue
        m = re.match(r"cdef class (\w+)", line)
        if m:
            cls = pxd.classes.setdefault(m.group(1), PxdClass(m.group(1)))
            continue
        if line.startswith("@cython.locals("):
            inner = line[len("@cython.locals("):-1]
            pending_locals = re.findall(r"(\w+)\s*=", re.sub(r'"[^"]*"', '""', inner))
            continue
        if line.startswith("@"):
            continue
        m = re.match(r"(?:cdef|cpdef)\b(.*?)\b(\w+)\s*\(", line)
        if m and not line.startswith(("cimport", "from")):
            name = m.group(2)
            key = f"{cls.name}.{name}" if cls else name
            (cls.methods if cls else pxd.functions).append(name)
            if pending_locals is not None:
                pxd.locals[key] = pending_locals
            pending_locals = None
            continue
        if line.startswith("cdef ") and "(" not in line:
            names = _declared_names(line[len("cdef "):])
            (cls.members if cls else pxd.variables).extend(names)
        pending_locals = None
    return pxd


@dataclass
class PyFunction:
    bound: set[str]                  # arguments and assigned locals
    decorator_locals: list[str]      # names in a @cython.locals on the .py side


def _assigned(fn: ast.FunctionDef) -> set[str]:
    names = {a.arg for a in fn.args.args + fn.args.kwonlyargs + fn.args.posonlyargs}
    names |= {a.arg for a in (fn.args.vararg, fn.args.kwarg) if a}

    def targets(node: ast.AST) -> None:
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                names.add(n.id)

    for node in ast.walk(fn):
        if node is not fn and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)):
            targets(node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1
                    else node)
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            targets(node.optional_vars)
    return names


def _decorator_locals(fn: ast.FunctionDef) -> list[str]:
    out: list[str] = []
    for d in fn.decorator_list:
        if (isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute)
                and d.func.attr == "locals"):
            out.extend(k.arg for k in d.keywords if k.arg)
    return out


def parse_py(text: str) -> tuple[dict[str, PyFunction], dict[str, set[str]], set[str]]:
    """Functions keyed like the ``.pxd`` (``Class.method``), each class's attributes
    (``self.x`` assigned anywhere in it, class-level names, method names), and the
    module's assigned names."""
    tree = ast.parse(text)
    functions: dict[str, PyFunction] = {}
    classes: dict[str, set[str]] = {}
    module: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            attrs = classes.setdefault(node.name, set())
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    attrs.add(item.name)
                    functions[f"{node.name}.{item.name}"] = PyFunction(_assigned(item), _decorator_locals(item))
                elif isinstance(item, (ast.Assign, ast.AnnAssign)):
                    for t in (item.targets if isinstance(item, ast.Assign) else [item.target]):
                        if isinstance(t, ast.Name):
                            attrs.add(t.id)
            for n in ast.walk(node):
                if (isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
                        and isinstance(n.value, ast.Name) and n.value.id == "self"):
                    attrs.add(n.attr)
        elif isinstance(node, ast.FunctionDef):
            module.add(node.name)
            functions[node.name] = PyFunction(_assigned(node), _decorator_locals(node))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        module.add(n.id)
        elif isinstance(node, ast.ImportFrom):
            module.update(a.asname or a.name for a in node.names)
    return functions, classes, module


def problems(pxd_text: str, py_text: str) -> list[str]:
    """Every name the C types mention that the Python source does not have."""
    pxd = parse_pxd(pxd_text)
    functions, classes, module = parse_py(py_text)
    out: list[str] = []
    for key, names in pxd.locals.items():
        fn = functions.get(key)
        if fn is None:
            continue  # reported below as a missing function
        out += [f"{key}: @cython.locals names '{n}', not a local" for n in names if n not in fn.bound]
    for key, fn in functions.items():
        out += [f"{key}: @cython.locals names '{n}', not a local" for n in fn.decorator_locals
                if n not in fn.bound]
    for cls in pxd.classes.values():
        attrs = classes.get(cls.name)
        if attrs is None:
            out.append(f"class {cls.name} is declared but not defined")
            continue
        out += [f"{cls.name}.{m}: declared member never set" for m in cls.members if m not in attrs]
        out += [f"{cls.name}.{m}(): declared method not defined" for m in cls.methods if m not in attrs]
    out += [f"{f}(): declared function not defined" for f in pxd.functions if f not in module]
    out += [f"{v}: declared module variable never assigned" for v in pxd.variables if v not in module]
    return out


def _pairs() -> list[tuple[str, Path, Path]]:
    base = [ROOT.joinpath(*m.split(".")) for m in COMPILED_MODULES]
    return [(m, b.with_suffix(".pxd"), b.with_suffix(".py")) for m, b in zip(COMPILED_MODULES, base)]


@pytest.mark.parametrize("module, pxd, py", _pairs(), ids=[m for m, _, _ in _pairs()])
def test_pxd_matches_its_source(module, pxd, py):
    pxd_text = pxd.read_text() if pxd.exists() else ""
    assert problems(pxd_text, py.read_text()) == []


def test_a_renamed_local_is_caught():
    """A local renamed in the ``.py`` but not in the ``.pxd`` (``total`` → ``totl``): Cython
    compiles it without a warning; the check names it."""
    pxd = ("cdef class A:\n    cdef public int n\n"
           "    @cython.locals(total=int, i=int)\n    cpdef int sum(self)\n")
    py = ("class A:\n    def __init__(self):\n        self.n = 3\n"
          "    def sum(self):\n        totl = 0\n        for i in range(self.n):\n"
          "            totl += i\n        return totl\n")
    assert problems(pxd, py) == ["A.sum: @cython.locals names 'total', not a local"]
    assert problems(pxd, py.replace("totl", "total")) == []


def test_the_real_tree_catches_a_rename():
    """The same on a real module: rename a typed local of the compiled Connect Four."""
    _, pxd, py = next(p for p in _pairs() if p[0] == "games.connect4")
    text = py.read_text()
    assert problems(pxd.read_text(), text) == []
    renamed = re.sub(r"\bplayable\b", "playabel", text)
    found = problems(pxd.read_text(), renamed)
    assert any("'playable'" in p for p in found), found


def test_a_lost_member_and_method_are_caught():
    pxd = "cdef class A:\n    cdef public int n, m\n    cpdef go(self)\ncdef int helper(int x)\n"
    py = "class A:\n    def __init__(self):\n        self.n = 1\n"
    assert problems(pxd, py) == ["A.m: declared member never set", "A.go(): declared method not defined",
                                 "helper(): declared function not defined"]
