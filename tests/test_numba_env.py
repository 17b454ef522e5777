"""analyzer/numba_env.py: numba's cache goes somewhere writable even on a read-only install."""

import os
import stat

import pytest

from analyzer.numba_env import choose_cache_dir


def test_user_setting_wins(tmp_path):
    assert choose_cache_dir(tmp_path, {"NUMBA_CACHE_DIR": "/x"}) == "/x"


def test_writable_package_keeps_numbas_default(tmp_path):
    assert choose_cache_dir(tmp_path, {}) is None


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write into read-only folders")
def test_read_only_package_uses_user_cache(tmp_path):
    pkg = tmp_path / "site"
    pkg.mkdir()
    pkg.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        chosen = choose_cache_dir(pkg, {"XDG_CACHE_HOME": str(tmp_path / "cache")})
    finally:
        pkg.chmod(stat.S_IRWXU)
    assert chosen == str(tmp_path / "cache" / "cardlab" / "numba")


def test_read_only_package_as_root(tmp_path, monkeypatch):
    """os.access is what decides; simulate a read-only tree for root too."""
    monkeypatch.setattr("analyzer.numba_env.os.access", lambda p, mode: str(p) != str(tmp_path))
    chosen = choose_cache_dir(tmp_path, {"XDG_CACHE_HOME": str(tmp_path / "c")})
    assert chosen == str(tmp_path / "c" / "cardlab" / "numba")
    assert (tmp_path / "c" / "cardlab" / "numba").is_dir()
