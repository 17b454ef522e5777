"""Where numba keeps its on-disk cache, decided before numba is imported.

Every jitted kernel in cardlab uses ``cache=True`` so that a second process loads compiled
machine code in about 0.1 s instead of compiling for seconds. numba writes that cache next to
the source files by default; when the installed package directory is read-only (a system
install, a container image) we point ``NUMBA_CACHE_DIR`` at a per-user cache folder instead,
falling back to the temporary directory. A value the user set is always respected.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent.parent


def _writable_dir(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(path, os.W_OK | os.X_OK)


def choose_cache_dir(package_root: Path, env: dict[str, str]) -> str | None:
    """Return the folder to use as NUMBA_CACHE_DIR, or None to keep numba's default.

    numba's default (``__pycache__`` beside each module) is kept when the package tree is
    writable. Otherwise ``$XDG_CACHE_HOME/cardlab/numba`` (or ``~/.cache/cardlab/numba``) is
    used when it can be created, else a folder in the system temporary directory.
    """
    if env.get("NUMBA_CACHE_DIR"):
        return env["NUMBA_CACHE_DIR"]
    if os.access(package_root, os.W_OK | os.X_OK):
        return None
    base = env.get("XDG_CACHE_HOME") or str(Path(env.get("HOME", "~")).expanduser() / ".cache")
    candidate = Path(base) / "cardlab" / "numba"
    if _writable_dir(candidate):
        return str(candidate)
    fallback = Path(tempfile.gettempdir()) / "cardlab-numba-cache"
    _writable_dir(fallback)
    return str(fallback)


def configure_numba_cache() -> None:
    """Set NUMBA_CACHE_DIR if needed; safe to call more than once."""
    chosen = choose_cache_dir(PACKAGE_ROOT, dict(os.environ))
    if chosen and os.environ.get("NUMBA_CACHE_DIR") != chosen:
        os.environ["NUMBA_CACHE_DIR"] = chosen
        if "numba" in sys.modules:  # imported before us: make numba re-read its settings
            sys.modules["numba"].config.reload_config()
