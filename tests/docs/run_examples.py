#!/usr/bin/env python3
"""Runs every code example of the documentation, so that none can rot.

    python3 tests/docs/run_examples.py [--timeout S] [-v] [FILE.md...]

Without files: README.md, bindings/*/README.md, core/GEN_C.md, benchmarks/README.md,
tests/conformance/README.md and docs/*.md. Every fenced block runs by its language tag
against the packages the test command built (tests/docs/README.md says what runs how);
a block of a runnable language fails unless it runs cleanly or a marker says otherwise.

Markers: an HTML comment on the line right before a fence controls that block:

    <!-- example: skip REASON -->   not run, and why (the reason is required)
    <!-- example: continues -->     appends to the previous block of the same language
                                    in the same file (prose may split an example)
    <!-- example: output -->        shows output: must appear in the previous block's
                                    stdout (each line compared without trailing blanks)
    <!-- example: expect-fail -->   must exit non-zero
    <!-- example: file NAME -->     saved as NAME in the working directory, not run
                                    itself; a later block of the file builds or runs it

Each file's blocks run in order in a working directory of its own (a temporary
directory holding a symlink to every top-level entry of the repository), so paths like
schemas/proto.fbe resolve and the files an example writes land outside the tree.

Prints one line per block and a summary; exits 1 when a block failed.
"""

import argparse
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_FILES = ["README.md", "bindings/*/README.md", "core/GEN_C.md", "benchmarks/README.md",
                 "tests/conformance/README.md", "docs/*.md"]

RUNNABLE = {"python": "python", "py": "python", "ruby": "ruby", "rb": "ruby",
            "js": "js", "javascript": "js", "ts": "ts", "typescript": "ts", "java": "java",
            "c": "c", "cpp": "cpp", "c++": "cpp", "go": "go",
            "sh": "sh", "bash": "sh", "shell": "sh", "console": "console"}
# Output samples, configuration and build snippets: shown, not run. (CMake snippets
# are what tests/consumer builds: the install_consumer ctest.)
NOT_CODE = {"", "text", "txt", "output", "cmake", "xml", "json", "jsonl", "diff", "ini",
            "toml", "yaml", "yml", "make", "makefile", "fbe",
            # Rust blocks run as doc tests of the fbe crate (fbe/src/lib.rs includes
            # bindings/rust/README.md): cargo test in the rust stage of ci/test.sh
            "rust"}

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
MARKER = re.compile(r"^\s*<!--\s*example:(.*?)-->\s*$")
MARKER_START = re.compile(r"^\s*<!--\s*example:")
MARKER_KINDS = ("skip", "continues", "output", "expect-fail", "file")


@dataclass
class Block:
    path: str            # relative to the repository
    line: int            # of the opening fence, 1-based
    lang: str            # the tag as written, lower case
    text: str
    marker: str = ""     # the marker's kind, "" when none
    argument: str = ""   # skip's reason, file's name
    program: str = ""    # the text run: with the blocks it continues
    stdout: str = ""
    status: str = ""     # ran, skipped, saved, not code, FAILED
    note: str = ""
    output: str = ""     # what a failure printed
    seconds: float = 0.0

    @property
    def where(self):
        return f"{self.path}:{self.line}"


@dataclass
class Tools:
    python: str
    ruby_lib: str
    jar: str
    tsc: str
    missing: dict = field(default_factory=dict)


def parse(path):
    """The fenced blocks of a markdown file, each with its marker, and the errors
    (line, message) of markers that are malformed or stand before no fence."""
    with open(os.path.join(REPO, path), encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks, errors = [], []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            if MARKER_START.search(lines[i]):
                nxt = lines[i + 1] if i + 1 < len(lines) else ""
                if not FENCE.match(nxt) or not MARKER.match(lines[i]):
                    errors.append((i + 1, "an example marker must be a line of its own right "
                                          f"before a fence: {lines[i].strip()}"))
            i += 1
            continue
        indent, fence, info = m.group(1), m.group(2), m.group(3).strip()
        start = i
        body = []
        i += 1
        while i < len(lines):
            close = FENCE.match(lines[i])
            if (close and close.group(2)[0] == fence[0] and len(close.group(2)) >= len(fence)
                    and not close.group(3).strip()):
                break
            line = lines[i]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            i += 1
        i += 1
        block = Block(path, start + 1, (info.split() or [""])[0].lower(), "\n".join(body) + "\n")
        if start > 0:
            mm = MARKER.match(lines[start - 1])
            if mm:
                words = mm.group(1).split(None, 1)
                kind = words[0] if words else ""
                block.marker, block.argument = kind, (words[1].strip() if len(words) > 1 else "")
                if kind not in MARKER_KINDS:
                    errors.append((block.line, f"unknown marker '{kind}' "
                                               f"(want one of: {', '.join(MARKER_KINDS)})"))
                elif kind in ("skip", "file") and not block.argument:
                    errors.append((block.line, f"'{kind}' needs "
                                   f"{'a reason' if kind == 'skip' else 'a file name'}"))
                elif kind not in ("skip", "file") and block.argument:
                    errors.append((block.line, f"'{kind}' takes no argument"))
        blocks.append(block)
    return blocks, errors


def find_tools():
    """The built packages the examples use; what is missing is reported by the blocks
    that need it, with the command that builds it."""
    missing = {}
    python = os.path.join(REPO, "build/python/venv/bin/python")
    if not os.path.exists(python):
        missing["python"] = "no build/python/venv: run bash bindings/python/tools/ci.sh"
    libs = sorted(glob.glob(os.path.join(REPO, "build/ruby/gems/gems/fbe-*/lib")))
    ruby_lib = libs[-1] if libs else ""
    if not ruby_lib:
        missing["ruby"] = "no gem in build/ruby/gems: run bash bindings/ruby/tools/ci.sh"
    jars = [j for j in sorted(glob.glob(os.path.join(REPO, "bindings/java/target/fbe-*.jar")))
            if not re.search(r"-(sources|javadoc)\.jar$", j)]
    jar = jars[0] if jars else ""
    if not jar:
        missing["java"] = "no bindings/java/target/fbe-*.jar: run bash bindings/java/tools/ci.sh"
    if not glob.glob(os.path.join(REPO, "bindings/node/build/Release/*.node")):
        missing["js"] = "no Node addon in bindings/node/build: run bash bindings/node/tools/ci.sh"
    tsc = os.path.join(REPO, "bindings/node/node_modules/.bin/tsc")
    if not os.path.exists(tsc):
        missing["ts"] = "no tsc in bindings/node/node_modules: run bash bindings/node/tools/ci.sh"
    elif "js" in missing:
        missing["ts"] = missing["js"]
    # go: bindings/go with the core vendored into it (its blocks are whole programs)
    if not os.path.isdir(os.path.join(REPO, "bindings/go/core/src")) or not shutil.which("go"):
        missing["go"] = "no go, or no core vendored in bindings/go: run bash bindings/go/tools/ci.sh"
    if not os.path.exists(os.path.join(REPO, "build/release/libfbe.a")):
        missing["c"] = "no build/release/libfbe.a: run the test command's build (Release) stage"
        missing["cpp"] = missing["c"]
    return Tools(python, ruby_lib, jar, tsc, missing)


class Workspace:
    """The temporary directory a markdown file's blocks run in:
    work/ (the cwd: symlinks to the repository's entries, files saved by `file`),
    src/ (the programs), out/ (compiled output), node_modules/fbe -> bindings/node."""

    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="fbe-docs-")
        self.work = os.path.join(self.root, "work")
        self.src = os.path.join(self.root, "src")
        self.out = os.path.join(self.root, "out")
        for d in (self.work, self.src, self.out, os.path.join(self.root, "node_modules")):
            os.mkdir(d)
        for name in os.listdir(REPO):
            if name not in (".git", "node_modules"):
                os.symlink(os.path.join(REPO, name), os.path.join(self.work, name))
        os.symlink(os.path.join(REPO, "bindings/node"), os.path.join(self.root, "node_modules/fbe"))
        types = os.path.join(REPO, "bindings/node/node_modules/@types")
        if os.path.isdir(types):
            os.symlink(types, os.path.join(self.root, "node_modules/@types"))

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)


def java_program(text):
    """A fragment without a class goes into the main method of one; its imports stay
    at the top, with java.util, java.nio.file, java.io and org.libfbe imported."""
    if re.search(r"^\s*(public\s+|final\s+|abstract\s+)*(class|record|interface|enum)\s+\w+",
                 text, re.M):
        return text
    imports = [line for line in text.split("\n") if line.startswith("import ")]
    body = [line for line in text.split("\n") if not line.startswith("import ")]
    return ("import java.io.*;\nimport java.nio.file.*;\nimport java.util.*;\n"
            "import org.libfbe.*;\n" + "\n".join(imports) +
            "\npublic class Example {\n  public static void main(String[] args) throws Exception {\n"
            + "\n".join("    " + line for line in body) + "\n  }\n}\n")


def c_program(text):
    """A fragment without main() goes into one; its #include lines stay at the top,
    with stdio.h, stdlib.h, string.h and fbe/fbe.h included."""
    if re.search(r"\bmain\s*\(", text):
        return text
    lines = text.split("\n")
    includes = [line for line in lines if line.lstrip().startswith("#include")]
    body = [line for line in lines if not line.lstrip().startswith("#include")]
    return ("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <fbe/fbe.h>\n"
            + "\n".join(includes) + "\nint main(void) {\n" + "\n".join("  " + l for l in body)
            + "\n  return 0;\n}\n")


def cpp_program(text):
    """As c_program, for C++17 over fbe.hpp: a fragment without main() goes into one,
    with iostream, string, vector and fbe/fbe.hpp included."""
    if re.search(r"\bmain\s*\(", text):
        return text
    lines = text.split("\n")
    includes = [line for line in lines if line.lstrip().startswith("#include")]
    body = [line for line in lines if not line.lstrip().startswith("#include")]
    return ("#include <iostream>\n#include <string>\n#include <vector>\n#include <fbe/fbe.hpp>\n"
            + "\n".join(includes) + "\nint main() {\n" + "\n".join("  " + l for l in body)
            + "\n  return 0;\n}\n")


def console_commands(text):
    """A console block: the `$ ` lines are the commands, the rest their output."""
    lines = text.rstrip("\n").split("\n")
    commands = [line[2:] for line in lines if line.startswith("$ ")]
    if not commands:
        return text, ""
    return "\n".join(commands) + "\n", "\n".join(l for l in lines if not l.startswith("$ "))


def run(argv, ws, timeout, env):
    """(exit status or None on timeout, stdout, stderr) of one process, in the work dir.
    It runs in a process group of its own, killed whole on a timeout or an interrupt."""
    p = subprocess.Popen(argv, cwd=ws.work, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        err += b"" if not err or err.endswith(b"\n") else b"\n"
        rc, err = None, err + f"(no exit within {timeout:g} s: killed)".encode()
    except BaseException:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        raise
    return rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def execute(block, kind, ws, tools, timeout, env):
    """Runs block.program; returns (status, stdout, stderr)."""
    if kind in tools.missing:
        return 1, "", tools.missing[kind]
    name = f"{os.path.basename(block.path).split('.')[0]}_{block.line}"
    src = os.path.join(ws.src, name)
    if kind == "python":
        with open(src + ".py", "w", encoding="utf-8") as f:
            f.write(block.program)
        return run([tools.python, src + ".py"], ws, timeout, env)
    if kind == "ruby":
        with open(src + ".rb", "w", encoding="utf-8") as f:
            f.write(block.program)
        return run(["ruby", "-I", tools.ruby_lib, src + ".rb"], ws, timeout, env)
    if kind == "js":
        with open(src + ".js", "w", encoding="utf-8") as f:
            f.write(block.program)
        return run(["node", src + ".js"], ws, timeout, env)
    if kind == "ts":
        with open(src + ".ts", "w", encoding="utf-8") as f:
            f.write(block.program)
        rc, out, err = run([tools.tsc, "--strict", "--target", "es2020", "--module", "commonjs",
                            "--moduleResolution", "node", "--esModuleInterop", "--skipLibCheck",
                            "--outDir", ws.out, src + ".ts"], ws, timeout, env)
        if rc != 0:
            return rc, out, err
        return run(["node", os.path.join(ws.out, name + ".js")], ws, timeout, env)
    if kind == "java":
        with open(src + ".java", "w", encoding="utf-8") as f:
            f.write(java_program(block.program))
        return run(["java", "-cp", tools.jar, src + ".java"], ws, timeout, env)
    if kind == "go":
        # a module of its own that requires libfbe.org/fbe with a replace to bindings/go;
        # built there, run in the work dir (where the examples' relative paths are)
        os.makedirs(src)
        with open(os.path.join(src, "main.go"), "w", encoding="utf-8") as f:
            f.write(block.program)
        with open(os.path.join(src, "go.mod"), "w", encoding="utf-8") as f:
            f.write(f"module example.com/{name}\n\ngo 1.19\n\nrequire libfbe.org/fbe v0.0.0\n\n"
                    f"replace libfbe.org/fbe => {os.path.join(REPO, 'bindings/go')}\n")
        exe = os.path.join(ws.out, name)
        rc, out, err = run(["go", "build", "-C", src, "-o", exe, "."], ws, timeout,
                           dict(env, GOPROXY="off", GOFLAGS="-mod=mod"))
        if rc != 0:
            return rc, out, err
        return run([exe], ws, timeout, env)
    if kind == "c":
        with open(src + ".c", "w", encoding="utf-8") as f:
            f.write(c_program(block.program))
        exe = os.path.join(ws.out, name)
        rc, out, err = run([os.environ.get("CC", "cc"), "-std=c11", "-Wall", "-Wextra", "-Werror",
                            "-DFBE_STATIC", "-I", os.path.join(REPO, "core/include"), src + ".c",
                            os.path.join(REPO, "build/release/libfbe.a"), "-lm", "-o", exe],
                           ws, timeout, env)
        if rc != 0:
            return rc, out, err
        return run([exe], ws, timeout, env)
    if kind == "cpp":
        with open(src + ".cpp", "w", encoding="utf-8") as f:
            f.write(cpp_program(block.program))
        exe = os.path.join(ws.out, name)
        rc, out, err = run([os.environ.get("CXX", "c++"), "-std=c++17", "-Wall", "-Wextra", "-Werror",
                            "-DFBE_STATIC", "-I", os.path.join(REPO, "core/include"),
                            "-I", os.path.join(REPO, "bindings/cpp/include"), src + ".cpp",
                            os.path.join(REPO, "build/release/libfbe.a"), "-lm", "-o", exe],
                           ws, timeout, env)
        if rc != 0:
            return rc, out, err
        return run([exe], ws, timeout, env)
    # sh, console
    with open(src + ".sh", "w", encoding="utf-8") as f:
        f.write(block.program)
    return run(["bash", "-euo", "pipefail", src + ".sh"], ws, timeout, env)


def normalized(text):
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n"))


def contains_output(stdout, shown):
    return normalized(shown) in normalized(stdout)


class Document:
    """One markdown file's blocks, run in order in a workspace of their own."""

    def __init__(self, path, tools, timeout, verbose):
        self.path, self.tools, self.timeout, self.verbose = path, tools, timeout, verbose
        self.blocks, self.errors = parse(path)
        self.last = {}         # language -> its last block (what `continues` appends to)
        self.previous = None   # the last block of a runnable language (what `output` shows)
        self.env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1",
                        PATH=os.path.join(REPO, "build/release/bin") + os.pathsep +
                        os.environ.get("PATH", ""))

    def run(self):
        bad = {}  # line of a block -> what is wrong with its marker
        for line, message in self.errors:
            if any(b.line == line for b in self.blocks):
                bad[line] = message
            else:  # a marker on its own: a failure of its line
                stray = Block(self.path, line, "marker", "", status="FAILED", note=message)
                self.blocks.append(stray)
                report(stray, self.verbose)
        self.blocks.sort(key=lambda b: b.line)
        self.ws = Workspace()
        try:
            for b in self.blocks:
                if b.lang == "marker" and b.status:
                    continue  # a stray marker, reported
                t0 = time.monotonic()
                kind = RUNNABLE.get(b.lang)
                if b.line in bad:
                    b.status, b.note = "FAILED", bad[b.line]
                elif b.marker == "skip":
                    # on a block that is not code, the reason says where it is checked
                    b.status = "skipped" if kind or b.lang not in NOT_CODE else "not code"
                    b.note = b.argument
                elif b.marker == "file":
                    self.save(b)
                elif b.marker == "output":
                    self.check_output(b)
                elif kind is None:
                    if b.lang in NOT_CODE:
                        b.status = "not code"
                    else:
                        b.status, b.note = "FAILED", (f"unknown language '{b.lang}': add it to "
                                                      "RUNNABLE or NOT_CODE in tests/docs/run_examples.py")
                else:
                    self.execute(b, kind)
                if kind and b.marker not in ("output", "file"):
                    self.previous = b
                b.seconds = time.monotonic() - t0
                report(b, self.verbose)
        finally:
            self.ws.close()
        return self.blocks

    def save(self, b):
        """A `file NAME` block: written into the work dir for a later block, which must
        exist: a block after it that runs and names the file."""
        name = b.argument
        target = os.path.normpath(os.path.join(self.ws.work, name))
        users = [u for u in self.blocks if u.line > b.line and RUNNABLE.get(u.lang)
                 and u.marker not in ("skip", "file", "output") and name in u.text]
        if not target.startswith(self.ws.work + os.sep) or os.path.lexists(target):
            b.status, b.note = "FAILED", f"cannot save as {name}: not a new file of the work dir"
        elif not users:
            b.status, b.note = "FAILED", f"saved as {name}, but no later block that runs names it"
        else:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as f:
                f.write(b.text)
            b.status, b.note = "saved", f"as {name}, used by {users[0].where}"

    def check_output(self, b):
        """An `output` block: its lines must appear in the stdout of the block before."""
        shown = self.previous
        if shown is None:
            b.status, b.note = "FAILED", "an output block with no code block before it"
        elif shown.status != "ran":
            b.status = "skipped"
            b.note = f"the block it shows ({shown.where}) {'failed' if shown.status == 'FAILED' else 'was skipped'}"
        elif contains_output(shown.stdout, b.text):
            b.status, b.note = "checked", f"the output of {shown.where}"
        else:
            b.status, b.note = "FAILED", f"not in the output of {shown.where}"
            b.output = f"stdout of {shown.where}:\n{shown.stdout}"

    def execute(self, b, kind):
        b.program, expected = b.text, ""
        if kind == "console":
            b.program, expected = console_commands(b.text)
        before, self.last[kind] = self.last.get(kind), b
        if b.marker == "continues":
            if before is None:
                b.status, b.note = "FAILED", f"continues, but no {b.lang} block comes before it"
                return
            if not before.program:
                b.status, b.note = "skipped", f"continues {before.where}, which was skipped"
                return
            b.program = before.program + "\n" + b.program
            b.note = f"with {before.where}"
        rc, out, err = execute(b, kind, self.ws, self.tools, self.timeout, self.env)
        b.stdout = out
        printed = out + ("\n" if out and not out.endswith("\n") else "") + err
        if self.verbose:
            b.output = printed
        if b.marker == "expect-fail":
            if rc is not None and rc != 0:
                b.status, b.note = "ran", f"failed as expected, exit status {rc}"
            else:
                b.status, b.output = "FAILED", printed
                b.note = "expected to fail, but " + ("exited 0" if rc == 0 else "did not exit")
        elif rc == 0 and (not expected or contains_output(out, expected)):
            b.status = "ran"
        else:
            b.status, b.output = "FAILED", printed
            b.note = ("did not exit" if rc is None else f"exit status {rc}" if rc
                      else "the console output differs")


def report(b, verbose):
    took = f" ({b.seconds:.1f} s)" if b.status == "ran" and b.seconds >= 0.05 else ""
    note = f" ({b.note})" if b.note else ""
    lang = b.lang or "untagged"
    print(f"{b.where} {lang} {b.status}{note}{took}", flush=True)
    if (b.status == "FAILED" or verbose) and b.output:
        lines = b.output.rstrip("\n").split("\n")
        if len(lines) > 60 and not verbose:
            lines = lines[:20] + [f"... {len(lines) - 40} lines ..."] + lines[-20:]
        for line in lines:
            print("    | " + line)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", help="markdown files (default: the documentation)")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per block (default 120)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print what every block printed, and failures whole")
    args = ap.parse_args()
    # Killed from outside: still remove the working directories (finally clauses).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.files:
        files = [os.path.relpath(os.path.abspath(f), REPO) for f in args.files]
        files = [f if not f.startswith("..") else os.path.abspath(os.path.join(REPO, f))
                 for f in files]
    else:
        files = sorted({os.path.relpath(f, REPO) for pattern in DEFAULT_FILES
                        for f in glob.glob(os.path.join(REPO, pattern))},
                       key=lambda f: (f != "README.md", f))
    tools = find_tools()
    t0 = time.monotonic()
    blocks = []
    for path in files:
        blocks += Document(path, tools, args.timeout, args.verbose).run()
    count = lambda status: sum(1 for b in blocks if b.status == status)
    failed = [b for b in blocks if b.status == "FAILED"]
    print(f"\n{count('ran')} ran, {count('skipped')} skipped, {len(failed)} failed "
          f"({count('checked')} output blocks checked, {count('saved')} saved as files for a "
          f"later block, {count('not code')} not code; {len(files)} files, "
          f"{time.monotonic() - t0:.1f} s)")
    for b in failed:
        print(f"FAILED {b.where} {b.lang or 'untagged'}: {b.note}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
