#!/usr/bin/env python3
"""Harvest user-facing error messages from Azure ML client packages.

Downloads pinned wheels with `pip download --no-deps`, unpacks them (zip) and
walks every .py file with the `ast` module, collecting the string arguments of

  * ``raise SomeError(...)`` / ``raise SomeException(...)``   -> kind raise:<Class>
  * ``logger.error/exception/critical(...)`` (logger, log, _logger,
    module_logger, LOGGER, ...)                               -> kind log:<level>
  * well-known message constants: module-level string assignments whose name
    ends in _ERROR/_MSG/_MESSAGE, and string members of classes named like
    *ErrorStrings / *Messages / ErrorMessages                 -> kind constant:<NAME>

Rendering of a message expression:
  * str constants as is; implicit/explicit concatenations joined
  * f-strings: every ``{...}`` replacement field becomes ``<x>``
  * ``"...".format(...)`` templates: ``{...}`` fields become ``<x>``
    (``{{``/``}}`` escapes become literal braces)
  * ``"..." % args``: the template is kept, ``%s`` left as is
  * names bound to a string earlier in the same function / module, and
    ``Class.ATTR`` constants defined in the same file, are resolved
  * any other sub-expression inside a concatenation becomes ``<x>``

Messages shorter than 20 characters once placeholders are removed, messages
made only of placeholders, noise (dunder / repr strings, code templates) and
duplicates within a package are skipped.  Output:
tests/fixtures/clients/client-messages.tsv (read by tests/cli/client_messages.rs),
sorted by package, file, message.  Deterministic.

Usage: python3 harvest_client_messages.py [--out PATH] [--wheels DIR]
"""

import argparse
import ast
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from collections import Counter, OrderedDict

# Latest versions on PyPI at harvest time (pinned for reproducibility).
PACKAGES = [
    ("azure-ai-ml", "1.35.2"),
    ("azureml-core", "1.61.0.post4"),
    ("azureml-pipeline-steps", "1.62.0"),
    ("azureml-pipeline-core", "1.62.0"),
    ("azureml-inference-server-http", "1.5.1"),
    ("azureml-dataprep", "5.5.0"),
]
# Note on the ParallelRunStep driver (azureml_user/parallel_run/*, launched as
# driver/amlbi_main.py, see azureml/pipeline/core/_parallel_run_step_base.py):
# no PyPI package ships it.  azureml-pipeline-steps 1.62.0 and
# azureml-contrib-pipeline-steps 1.62.0 only hold the client-side
# ParallelRunStep/ParallelRunConfig classes, azureml-dataset-runtime
# 1.62.0.post1 is an empty meta wheel (dist-info only) and there is no
# azureml-parallel-run project on PyPI.  The driver is injected by the service
# into the job's working directory at run time, so its messages
# ('The number of failed items exceeded ... error_threshold') cannot be
# harvested from a registry package.  Client-side error_threshold validation
# messages come from azureml-pipeline-core / azure-ai-ml and are included.

# Restrict kinds per package ("only where it raises to the user").
KIND_FILTER = {
    "azureml-dataprep": ("raise:",),
}

MIN_LEN = 20
LOG_LEVELS = {"error", "exception", "critical"}
LOGGER_RE = re.compile(r"^_*(module_|main_|root_|package_)?(log|logger)$", re.I)
CONST_NAME_RE = re.compile(r"_(ERROR|MSG|MESSAGE)$")
CONST_CLASS_RE = re.compile(r"(ErrorStrings|Messages|ErrorMessages|ErrorMsgs)$")
MESSAGE_KWARGS = ("message", "msg", "error_message", "err_msg", "exp_message",
                  "error_msg", "reason", "description")
EXC_CLASS_RE = re.compile(r"(Error|Exception|Failure)$")
VALIDATION_APPENDERS = {"append_error", "_create_validation_error"}
# Functions whose strings are representations, not messages.
SKIP_FUNCS = {"__repr__", "__str__", "__format__", "__unicode__"}

PH = "<x>"
PLACEHOLDER_RE = re.compile(
    r"<x>|%\([^)]*\)[-#0 +]*\d*(?:\.\d+)?[sdrifgex]|%[-#0 +]*\d*(?:\.\d+)?[sdrifgex]|\{[^{}]*\}")
FORMAT_FIELD_RE = re.compile(r"\{\{|\}\}|\{[^{}]*\}")


def format_template(s):
    """Turn a str.format template into a rendered message."""
    def rep(m):
        t = m.group(0)
        if t == "{{":
            return "{"
        if t == "}}":
            return "}"
        return PH
    return FORMAT_FIELD_RE.sub(rep, s)


# str.format replacement fields that look like real fields ({}, {0}, {name},
# {name!r}, {0:.2f}, {a.b}, {a[0]}) -- used for message constants, which are
# .format templates filled in elsewhere; JSON-like braces are left alone.
CONST_FIELD_RE = re.compile(r"\{\{|\}\}|\{(?:\d+|[A-Za-z_]\w*)?(?:\.\w+|\[\w+\])*(?:![rsa])?(?::[^{}]*)?\}")


def const_template(s):
    return CONST_FIELD_RE.sub(lambda m: {"{{": "{", "}}": "}"}.get(m.group(0), PH), s)


# Generated or decorative strings that are not messages a user reads.
NOISE_PATTERNS = [
    re.compile(r"^API version <x> does not have operation group "),  # vendored multi-API clients
    re.compile(r"^API version <x> does not have the operation group "),
]


class Scope:
    def __init__(self, parent=None):
        self.parent = parent
        self.names = {}

    def lookup(self, name):
        s = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None


class Renderer:
    def __init__(self, class_consts, global_names=None, global_class_consts=None):
        self.class_consts = class_consts  # (Class, ATTR) -> str, same file
        # package-wide, unambiguous module-level constants (imported names)
        self.global_names = global_names or {}
        self.global_class_consts = global_class_consts or {}

    def render(self, node, scope, top=True):
        """Return a list of rendered alternatives (possibly empty)."""
        if isinstance(node, ast.Constant):
            return [node.value] if isinstance(node.value, str) else []
        if isinstance(node, ast.JoinedStr):
            out = []
            for v in node.values:
                if isinstance(v, ast.Constant) and isinstance(v.value, str):
                    out.append(v.value)
                else:
                    out.append(PH)
            return ["".join(out)]
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left = self.render(node.left, scope, False) or [None]
            right = self.render(node.right, scope, False) or [None]
            res = []
            for a in left[:2]:
                for b in right[:2]:
                    if a is None and b is None:
                        continue
                    res.append((a if a is not None else PH) + (b if b is not None else PH))
            return res
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            return self.render(node.left, scope, False)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "format":
            return [format_template(s) for s in self.render(node.func.value, scope, False)]
        if isinstance(node, ast.IfExp):
            return self.render(node.body, scope, top) + self.render(node.orelse, scope, top)
        if isinstance(node, ast.Name):
            v = scope.lookup(node.id)
            if not v and node.id in self.global_names:
                v = [self.global_names[node.id]]
            return list(v) if v else []
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            key = (node.value.id, node.attr)
            v = self.class_consts.get(key, self.global_class_consts.get(key))
            return [v] if v is not None else []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("_", "gettext", "str") and node.args:
            return self.render(node.args[0], scope, top)
        return []


def callee_name(func):
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def logger_level(call):
    f = call.func
    if not isinstance(f, ast.Attribute) or f.attr not in LOG_LEVELS:
        return None
    v = f.value
    ident = v.id if isinstance(v, ast.Name) else v.attr if isinstance(v, ast.Attribute) else None
    if ident and LOGGER_RE.match(ident):
        return f.attr
    return None


def is_noise(msg):
    core = PLACEHOLDER_RE.sub("", msg)
    if len(core.strip()) < MIN_LEN:
        return True
    s = msg.strip()
    if "__" in s and re.search(r"\b__\w+__\b", s) and len(re.sub(r"\b__\w+__\b|<x>", "", s).strip()) < MIN_LEN:
        return True
    if re.fullmatch(r"<?\w*[(<].*[)>]>?", s) and " " not in re.sub(r"<x>", "", s):
        return True  # repr-like "Foo(<x>)" or "<Foo <x>>"
    if s.startswith("<") and s.endswith(">") and "=" in s and s.count(" ") < 6:
        return True  # "<Model name=<x>>"
    # code / markup templates, not messages
    if re.match(r"^\s*(import |from \w+ import |def |class |#!|<\?xml|<html|\{\s*\")", s):
        return True
    if not re.search(r"[A-Za-z]{3,}\s+[A-Za-z]{2,}", PLACEHOLDER_RE.sub(" ", s)):
        return True  # no two words in a row: identifiers, paths, regexes
    # ignore banner rules such as "=====" when judging density
    dense = re.sub(r"\s+", "", re.sub(r"([=*#~_-])\1{3,}", "", s.replace(PH, "")))
    if dense and sum(ch.isalnum() for ch in dense) / len(dense) < 0.6:
        return True  # ASCII art, markup, punctuation-heavy templates
    if any(p.search(s) for p in NOISE_PATTERNS):
        return True
    return False


def clean(msg):
    msg = re.sub(r"[\t\r\n]+", " ", msg)
    msg = re.sub(r" {2,}", " ", msg)
    return msg.strip()


class Harvester(ast.NodeVisitor):
    def __init__(self, tree, global_names=None, global_class_consts=None):
        self.results = []  # (kind, message)
        self.class_consts = {}
        self.module_scope = Scope()
        self._collect_file_constants(tree)
        self.renderer = Renderer(self.class_consts, global_names, global_class_consts)
        self.scope = self.module_scope
        self.func_stack = []
        self.class_stack = []

    def _collect_file_constants(self, tree):
        r = Renderer({})
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for st in node.body:
                    if isinstance(st, (ast.Assign, ast.AnnAssign)) and st.value is not None:
                        targets = st.targets if isinstance(st, ast.Assign) else [st.target]
                        vals = r.render(st.value, Scope())
                        for t in targets:
                            if isinstance(t, ast.Name) and vals:
                                self.class_consts[(node.name, t.id)] = vals[0]
        for st in tree.body:
            if isinstance(st, (ast.Assign, ast.AnnAssign)) and st.value is not None:
                targets = st.targets if isinstance(st, ast.Assign) else [st.target]
                vals = r.render(st.value, self.module_scope)
                for t in targets:
                    if isinstance(t, ast.Name) and vals:
                        self.module_scope.names[t.id] = vals

    def add(self, kind, msgs):
        for m in msgs:
            if kind.startswith("constant:"):
                m = const_template(m)
            self.results.append((kind, m))

    # --- scopes
    def visit_FunctionDef(self, node):
        self.func_stack.append(node.name)
        old = self.scope
        self.scope = Scope(self.module_scope)
        self.generic_visit(node)
        self.scope = old
        self.func_stack.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self.class_stack.append(node.name)
        if CONST_CLASS_RE.search(node.name) and not self.func_stack:
            for st in node.body:
                if isinstance(st, (ast.Assign, ast.AnnAssign)) and st.value is not None:
                    targets = st.targets if isinstance(st, ast.Assign) else [st.target]
                    for t in targets:
                        if isinstance(t, ast.Name) and not t.id.startswith("__"):
                            self.add("constant:%s.%s" % (node.name, t.id),
                                     self.renderer.render(st.value, Scope()))
        self.generic_visit(node)
        self.class_stack.pop()

    def _in_skipped_func(self):
        return any(f in SKIP_FUNCS for f in self.func_stack)

    def visit_Assign(self, node):
        vals = self.renderer.render(node.value, self.scope)
        for t in node.targets:
            if isinstance(t, ast.Name):
                if vals:
                    prev = self.scope.names.get(t.id) if self.scope is not self.module_scope else None
                    self.scope.names[t.id] = (list(prev or []) + vals)[-4:] if prev else vals
                if not self.func_stack and not self.class_stack and CONST_NAME_RE.search(t.id):
                    self.add("constant:" + t.id, vals)
        self.generic_visit(node)

    def visit_AnnAssign(self, node):
        if node.value is not None and isinstance(node.target, ast.Name):
            vals = self.renderer.render(node.value, self.scope)
            if vals:
                self.scope.names[node.target.id] = vals
            if not self.func_stack and not self.class_stack and CONST_NAME_RE.search(node.target.id):
                self.add("constant:" + node.target.id, vals)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        if isinstance(node.target, ast.Name) and isinstance(node.op, ast.Add):
            prev = self.scope.lookup(node.target.id)
            add = self.renderer.render(node.value, self.scope) or [PH]
            if prev:
                self.scope.names[node.target.id] = [prev[-1] + add[0]]
        self.generic_visit(node)

    def _call_messages(self, call):
        msgs = []
        args = list(call.args)
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        for name in MESSAGE_KWARGS:
            if name in kw:
                args.insert(0, kw[name])
                break
        for a in args[:2]:
            msgs.extend(self.renderer.render(a, self.scope))
            if msgs:
                break
        return msgs

    def visit_Raise(self, node):
        exc = node.exc
        if isinstance(exc, ast.Call) and not self._in_skipped_func():
            cls = callee_name(exc.func)
            if cls and cls[:1].isupper():
                self.add("raise:" + cls, self._call_messages(exc))
        self.generic_visit(node)

    def _is_base_init(self, node):
        """super().__init__(...) or Base.__init__(self, ...) in an exception's __init__."""
        f = node.func
        if not (isinstance(f, ast.Attribute) and f.attr == "__init__"):
            return False
        if not (self.func_stack and self.func_stack[-1] == "__init__" and self.class_stack):
            return False
        if not EXC_CLASS_RE.search(self.class_stack[-1]):
            return False
        v = f.value
        return (isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "super") \
            or isinstance(v, (ast.Name, ast.Attribute))

    def visit_Call(self, node):
        lvl = logger_level(node)
        if lvl and node.args and not self._in_skipped_func():
            self.add("log:" + lvl, self.renderer.render(node.args[0], self.scope))
        elif self._is_base_init(node):
            call = node
            f = node.func
            if not isinstance(f.value, ast.Call) and node.args:  # Base.__init__(self, msg)
                call = ast.Call(func=f, args=node.args[1:], keywords=node.keywords)
            self.add("raise:" + self.class_stack[-1], self._call_messages(call))
        elif isinstance(node.func, ast.Attribute) and node.func.attr in VALIDATION_APPENDERS \
                and not self._in_skipped_func():
            # azure-ai-ml validation results: raised as ValidationException by try_raise()
            kw = {k.arg: k.value for k in node.keywords if k.arg}
            if "message" in kw:
                self.add("raise:ValidationException", self.renderer.render(kw["message"], self.scope))
        self.generic_visit(node)


def parse(src, fname):
    try:
        return ast.parse(src, filename=fname)
    except (SyntaxError, ValueError):
        return None


def global_constants(trees):
    """Package-wide module-level / class-level string constants that are unambiguous."""
    names, cls = {}, {}
    for tree in trees:
        h = Harvester(tree)
        for k, v in h.module_scope.names.items():
            names.setdefault(k, set()).add(v[0])
        for k, v in h.class_consts.items():
            cls.setdefault(k, set()).add(v)
    return ({k: next(iter(v)) for k, v in names.items() if len(v) == 1},
            {k: next(iter(v)) for k, v in cls.items() if len(v) == 1})


def harvest_tree(tree, gnames, gcls):
    h = Harvester(tree, gnames, gcls)
    h.visit(tree)
    return h.results


def download(pkg, ver, dest):
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
           "--disable-pip-version-check", "-q", "-d", dest, "%s==%s" % (pkg, ver)]
    subprocess.run(cmd, check=True)
    norm = re.sub(r"[-_.]+", "_", pkg).lower()
    for f in sorted(os.listdir(dest)):
        if f.endswith(".whl") and re.sub(r"[-_.]+", "_", f.split("-")[0]).lower() == norm \
                and f.split("-")[1] == ver:
            return os.path.join(dest, f)
    raise RuntimeError("wheel for %s==%s not found in %s" % (pkg, ver, dest))


def harvest_wheel(pkg, ver, whl):
    rows = OrderedDict()
    allowed = KIND_FILTER.get(pkg)
    with zipfile.ZipFile(whl) as z:
        names = sorted(n for n in z.namelist() if n.endswith(".py"))
        per_file = []
        trees = []
        for n in names:
            parts = n.split("/")
            if any(p in ("tests", "test") for p in parts[:-1]):
                continue
            tree = parse(z.read(n).decode("utf-8", "replace"), n)
            if tree is not None:
                trees.append((n, tree))
        gnames, gcls = global_constants(t for _, t in trees)
        for n, tree in trees:
            for kind, msg in harvest_tree(tree, gnames, gcls):
                if allowed and not kind.startswith(allowed):
                    continue
                m = clean(msg)
                if is_noise(m):
                    continue
                per_file.append((n, m, kind))
    # dedupe within the package: first occurrence in (file, message, kind) order
    for n, m, kind in sorted(per_file):
        if m not in rows:
            rows[m] = (pkg, ver, n, kind, m)
    return list(rows.values())


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument(
        "--out",
        default=os.path.join(here, "..", "tests", "fixtures", "clients", "client-messages.tsv"),
    )
    ap.add_argument("--wheels", help="directory holding already downloaded wheels")
    args = ap.parse_args()

    all_rows = []
    counts = OrderedDict()
    with tempfile.TemporaryDirectory(prefix="harvest-") as tmp:
        for pkg, ver in PACKAGES:
            whl = None
            if args.wheels:
                norm = re.sub(r"[-_.]+", "_", pkg).lower()
                for f in sorted(os.listdir(args.wheels)):
                    if f.endswith(".whl") and f.lower().startswith(norm + "-" + ver.lower() + "-"):
                        whl = os.path.join(args.wheels, f)
            if whl is None:
                whl = download(pkg, ver, tmp)
            rows = harvest_wheel(pkg, ver, whl)
            all_rows.extend(rows)
            counts[(pkg, ver)] = Counter(r[3].split(":")[0] for r in rows)

    all_rows.sort(key=lambda r: (r[0], r[2], r[4], r[3]))
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        f.write("package\tversion\tfile\tkind\tmessage\n")
        for r in all_rows:
            f.write("\t".join(r) + "\n")

    print("%-32s %-14s %6s %6s %6s %9s" % ("package", "version", "total", "raise", "log", "constant"))
    for (pkg, ver), c in counts.items():
        print("%-32s %-14s %6d %6d %6d %9d" % (pkg, ver, sum(c.values()), c["raise"], c["log"], c["constant"]))
    print("%-32s %-14s %6d" % ("TOTAL", "", len(all_rows)))
    print("wrote", args.out)


if __name__ == "__main__":
    main()
