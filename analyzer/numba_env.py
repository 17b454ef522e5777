"""Where numba keeps its on-disk cache, decided before numba is imported.

Every jitted kernel in cardlab uses ``cache=True`` so that a second process loads compiled
machine code in about 0.1 s instead of compiling for seconds. numba checks a cached kernel
against its own source file only (numba/numba#1833): after an edit to a module the kernel
calls into (``policies.py``, ``moves.py``, ``primitives.py``) it would load the old machine
code. So the cache folder carries a hash of every source file of the package
(``analyzer/`` and ``strategies/``): any edit to any module gives a new folder and freshly
compiled code, and ``make clean-cache`` is a convenience only.

The folder is ``<base>/<hash>``, with ``<base>``:

- ``NUMBA_CACHE_DIR`` when the user set it (the hash folder goes inside it);
- ``.numba_cache/`` beside the packages when that tree is writable (a checkout, a venv);
- else ``$XDG_CACHE_HOME/cardlab/numba`` (or ``~/.cache/cardlab/numba``), else a folder in
  the system temporary directory (a read-only install, a container image).

The hash also covers the numba settings that change the machine code without changing
numba's own cache key (``NUMBA_OPT``, ``NUMBA_BOUNDSCHECK``, ...: :data:`CODEGEN_ENV`), so code
compiled under one is never loaded under another.

Hash folders of older sources in a base cardlab owns are pruned (the newest few are kept).
Worker processes inherit the chosen folder through the environment and do not hash again;
a child that compiles with other data (``cardlab train``'s children, with another weights
file: :func:`child_env`) hashes its own folder in the same base, by the weights' content
(the same weights from another folder find their kernels compiled).

The vector width (:func:`configure_vector_width`): on a CPU with 512-bit vectors (AVX-512)
LLVM's tuning for it prefers 256-bit ones, and numba compiles for the host CPU with that
tuning. The deal's 109 independent draws are one vectorised loop, measured about 1.2x faster
for the deal of Who's the Ass? with 512-bit vectors (the C yardstick of issue 13 is built the
same way). So on such a CPU numba is given the host's features with ``-prefer-256-bit``
(NUMBA_CPU_FEATURES); ``CARDLAB_VECTOR_WIDTH=256`` keeps LLVM's default, and a
NUMBA_CPU_FEATURES the user set is left alone. Integer results do not depend on it (no kernel
uses fastmath), and numba's cache keeps code per feature set.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
SOURCE_PACKAGES = ("analyzer", "strategies")
OWN_ENV = "CARDLAB_NUMBA_CACHE"  # the folder this package chose, for child processes
LOCAL_BASE = ".numba_cache"
MEMO_NAME = "kernel-sources.json"  # in the base: kernel_sources's memo
KEEP_VERSIONS = 4  # hash folders kept per base (older sources are pruned)
PRUNE_AGE_S = 3600.0  # and only when unused for this long


# A module holds jitted code when it decorates or wraps a function for numba (directly or
# through analyzer.numba_compat's decorators).
JIT_MARK = re.compile(r"@(?:numba\.)?(?:njit|jit|intrinsic|overload|generated_jit|njit_no_runtime"
                      r"|njit_runtime)\b|\bnjit\(")


def _modules(package_root: Path) -> dict[str, Path]:
    """{dotted module name: file} of every ``.py`` file of the packages."""
    out: dict[str, Path] = {}
    for package in SOURCE_PACKAGES:
        root = package_root / package
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*.py")):
            parts = list(path.relative_to(package_root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _module_imports(name: str, path: Path, text: str, modules: dict[str, Path]) -> set[str]:
    """The package modules ``name`` imports at module level (inside top-level ``if``/``try``
    blocks too): the only imports whose names jitted code can read as globals."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for top in tree.body:
        nodes = [top] if isinstance(top, (ast.Import, ast.ImportFrom)) else (
            [n for n in ast.walk(top) if isinstance(n, (ast.Import, ast.ImportFrom))]
            if isinstance(top, (ast.If, ast.Try)) else [])
        for node in nodes:
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name in modules)
                continue
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                if f"{module}.{alias.name}" in modules:
                    found.add(f"{module}.{alias.name}")
                elif module in modules:
                    found.add(module)
    return found


def kernel_sources(package_root: Path, memo: Path | None = None) -> list[Path]:
    """The files the compiled kernels are made of: every module with jitted code
    (:data:`JIT_MARK`) and, transitively, every package module they import at module level.

    ``memo``: a file that keeps the answer for the package's sources as they are (a hash of
    every module's name and content): reading and hashing the modules takes milliseconds,
    parsing them a fifth of a second, which every cardlab command would otherwise pay at
    start. A memo that is missing, unreadable or of other sources is ignored and replaced
    (atomically; a memo that cannot be written is simply not kept)."""
    modules = _modules(package_root)
    raw: dict[str, bytes] = {}
    digest = hashlib.sha256()
    for name, path in modules.items():
        try:
            raw[name] = path.read_bytes()
        except OSError:
            raw[name] = b""
        digest.update(name.encode() + b"\0" + len(raw[name]).to_bytes(8, "little") + raw[name])
    key = digest.hexdigest()
    if memo is not None:
        with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
            kept = json.loads(memo.read_text(encoding="utf-8"))
            if kept["key"] == key:
                return [package_root / rel for rel in kept["sources"]]
    texts = {name: data.decode("utf-8", errors="replace") for name, data in raw.items()}
    todo = [name for name, text in texts.items() if JIT_MARK.search(text)]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(_module_imports(name, modules[name], texts[name], modules) - seen)
    found = sorted(modules[name] for name in seen)
    if memo is not None:
        _keep_memo(memo, {"key": key, "sources": [p.relative_to(package_root).as_posix()
                                                  for p in found]})
    return found


def _keep_memo(memo: Path, content: dict) -> None:
    """Write ``content`` to ``memo`` atomically (a temporary file, then a rename); nothing
    when the folder is not writable, and no temporary file left behind. (Not
    analyzer/runner/folder.py ``atomic_write``: that module loads numpy and pyarrow, and this
    one runs at every start before anything else is imported.)"""
    tmp = None
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".kernel-sources-", dir=memo.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(content, f)
        os.chmod(tmp, 0o644)  # as any other file of the cache (mkstemp makes it 0600)
        os.replace(tmp, memo)
        tmp = None
    except OSError:
        pass
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


# Data files numba freezes into compiled kernels (a learned family's weights), and the
# environment variables that name a file to use instead: they are hashed with the sources.
KERNEL_DATA = (("strategies/ass/learned.json", "CARDLAB_LEARNED_ASS"),
               ("strategies/ass/learned-linear.json", "CARDLAB_LEARNED_ASS_LINEAR"),
               ("strategies/ass/value.json", "CARDLAB_VALUE_ASS"),
               ("strategies/jass/learned.json", "CARDLAB_LEARNED_JASS"),
               ("strategies/jass/learned-leaf.json", "CARDLAB_LEARNED_JASS_LEAF"),
               ("strategies/jass/value.json", "CARDLAB_VALUE_JASS"))


def kernel_data(package_root: Path, env: dict[str, str] | None = None) -> list[Path]:
    """The data files the kernels are compiled with (:data:`KERNEL_DATA`)."""
    env = os.environ if env is None else env
    return [Path(env[var]) if env.get(var) else package_root / rel for rel, var in KERNEL_DATA]


# numba settings that change the machine code but not numba's own cache key (which holds the
# signature, the CPU name and features, and the function's source file only): a process
# compiled with NUMBA_OPT=0 or NUMBA_BOUNDSCHECK=1 would otherwise leave that code in the
# cache for every later run, which would load it unawares (slow, or unchecked where checks
# were asked for). Each setting given gets folders of its own.
CODEGEN_ENV = ("NUMBA_OPT", "NUMBA_BOUNDSCHECK", "NUMBA_DEBUGINFO", "NUMBA_LOOP_VECTORIZE",
               "NUMBA_SLP_VECTORIZE", "NUMBA_ENABLE_AVX", "NUMBA_DISABLE_INTEL_SVML",
               "NUMBA_FASTMATH")


def codegen_settings(env: dict[str, str] | None = None) -> list[str]:
    """The settings of :data:`CODEGEN_ENV` given in ``env`` (default: this process's), as
    ``NAME=value``."""
    env = os.environ if env is None else env
    return [f"{name}={env[name]}" for name in CODEGEN_ENV if env.get(name)]


def source_hash(package_root: Path, env: dict[str, str] | None = None,
                memo: Path | None = None) -> str:
    """A short hash of the kernels' source files (path and content): :func:`kernel_sources`,
    of the data files frozen into them (:func:`kernel_data`), and of the numba settings that
    change their machine code (:func:`codegen_settings`); ``env`` defaults to this process's
    environment; ``memo``: :func:`kernel_sources`'s."""
    digest = hashlib.sha256()
    for setting in codegen_settings(env):
        digest.update(setting.encode() + b"\0")
    named = [(path.relative_to(package_root).as_posix(), path)
             for path in kernel_sources(package_root, memo)]
    # a data file is named by the place it fills, not by where it lies: the same weights
    # compile to the same code from any folder (cardlab train's rounds, run again into
    # another folder, find their kernels compiled)
    named += [(rel, path) for (rel, _), path in zip(KERNEL_DATA, kernel_data(package_root, env),
                                                     strict=True)]
    for name, path in named:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        digest.update(name.encode() + b"\0")
        digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()[:16]


def _writable_dir(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(path, os.W_OK | os.X_OK)


def cache_base(package_root: Path, env: dict[str, str]) -> tuple[Path, bool]:
    """The folder the hash folders go in, and whether cardlab owns it (may prune it)."""
    if env.get("NUMBA_CACHE_DIR"):
        return Path(env["NUMBA_CACHE_DIR"]), False
    if os.access(package_root, os.W_OK | os.X_OK):
        return package_root / LOCAL_BASE, True
    base = env.get("XDG_CACHE_HOME") or str(Path(env.get("HOME", "~")).expanduser() / ".cache")
    candidate = Path(base) / "cardlab" / "numba"
    if _writable_dir(candidate):
        return candidate, True
    return Path(tempfile.gettempdir()) / "cardlab-numba-cache", True


def choose_cache_dir(package_root: Path, env: dict[str, str]) -> str:
    """The folder to use as NUMBA_CACHE_DIR: ``<base>/<hash of the sources>``."""
    own = _own(package_root, env)
    if own:  # chosen by our parent process, for this very package
        return own
    base, owned = cache_base(package_root, env)
    # the memo only in a base cardlab owns: in the user's NUMBA_CACHE_DIR cardlab writes
    # nothing but its hash folders
    folder = base / source_hash(package_root, env, base / MEMO_NAME if owned else None)
    _writable_dir(folder)
    return str(folder)


def _own(package_root: Path, env: dict[str, str]) -> str | None:
    root, sep, folder = env.get(OWN_ENV, "").partition(os.pathsep)
    if sep and root == str(package_root) and env.get("NUMBA_CACHE_DIR") == folder:
        return folder
    return None


def child_env(env: dict[str, str], package_root: Path = PACKAGE_ROOT) -> dict[str, str]:
    """The environment of a child process that compiles with other data files than this one
    (another weights file, :data:`KERNEL_DATA`): it hashes a folder of its own, in the base
    this process chose (the user's ``NUMBA_CACHE_DIR``, or cardlab's default base), never in
    another."""
    env = dict(env)
    own = _own(package_root, env)
    env.pop(OWN_ENV, None)
    if own is None:  # nothing chosen here: the child chooses as this process would
        return env
    base = Path(own).parent
    env.pop("NUMBA_CACHE_DIR", None)
    default, _ = cache_base(package_root, env)
    if base != default:  # the user's folder
        env["NUMBA_CACHE_DIR"] = str(base)
    return env


def prune(base: Path, current: Path, keep: int = KEEP_VERSIONS,
          age_s: float = PRUNE_AGE_S) -> None:
    """Remove hash folders of older sources: all but the ``keep`` newest, and only those
    unused for ``age_s`` seconds."""
    try:
        entries = [p for p in base.iterdir()
                   if p.is_dir() and len(p.name) == 16 and p != current]
        entries.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return
    now = time.time()
    for old in entries[max(0, keep - 1):]:
        try:
            if now - old.stat().st_mtime > age_s:
                shutil.rmtree(old, ignore_errors=True)
        except OSError:
            continue


VECTOR_ENV = "CARDLAB_VECTOR_WIDTH"  # "256": LLVM's default tuning on AVX-512 CPUs


def has_avx512(cpuinfo: str = "/proc/cpuinfo") -> bool:
    """True when the CPU has 512-bit vectors (Linux; elsewhere False: the default stays)."""
    try:
        with open(cpuinfo, encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    return "avx512f" in line.split()
    except OSError:
        pass
    return False


def vector_features(env: dict[str, str], avx512: bool) -> str | None:
    """The NUMBA_CPU_FEATURES to set, or None to leave numba's default (module docstring)."""
    if env.get("NUMBA_CPU_FEATURES") or env.get(VECTOR_ENV, "512") != "512" or not avx512:
        return None
    import llvmlite.binding as llvm  # numba's own LLVM binding; does not import numba

    return llvm.get_host_cpu_features().flatten() + ",-prefer-256-bit"


def configure_vector_width() -> None:
    """Prefer 512-bit vectors where the CPU has them (module docstring). Call it before the
    first kernel is compiled or loaded: numba reads the setting when its CPU target starts.
    ``CARDLAB_VECTOR_WIDTH`` is ``512`` (the default) or ``256``; any other value counts as
    ``256`` (LLVM's default, what numba does without cardlab)."""
    features = vector_features(dict(os.environ), has_avx512())
    if features:
        os.environ["NUMBA_CPU_FEATURES"] = features
        if "numba" in sys.modules:  # imported before us: make numba re-read its settings
            sys.modules["numba"].config.reload_config()


def configure_numba_cache() -> None:
    """Set NUMBA_CACHE_DIR to the folder for these sources; safe to call more than once."""
    env = dict(os.environ)
    chosen = choose_cache_dir(PACKAGE_ROOT, env)
    if _own(PACKAGE_ROOT, env) != chosen:
        base, owned = cache_base(PACKAGE_ROOT, env)
        folder = Path(chosen)
        if owned and folder.parent == base:
            with contextlib.suppress(OSError):
                os.utime(folder)  # mark as in use (pruning keeps recently used ones)
            prune(base, folder)
    os.environ[OWN_ENV] = f"{PACKAGE_ROOT}{os.pathsep}{chosen}"
    if os.environ.get("NUMBA_CACHE_DIR") != chosen:
        os.environ["NUMBA_CACHE_DIR"] = chosen
        if "numba" in sys.modules:  # imported before us: make numba re-read its settings
            sys.modules["numba"].config.reload_config()
