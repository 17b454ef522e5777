"""analyzer/numba_env.py: numba's cache goes somewhere writable, in a folder named after a hash
of the package's sources (so an edit to any module gives freshly compiled code)."""

import os
import stat

import pytest

from analyzer.numba_env import choose_cache_dir, prune, source_hash


def _package(root):
    (root / "analyzer").mkdir(parents=True)
    (root / "analyzer" / "a.py").write_text("x = 1\n")
    return root


def test_user_setting_is_the_base(tmp_path):
    pkg = _package(tmp_path / "pkg")
    chosen = choose_cache_dir(pkg, {"NUMBA_CACHE_DIR": str(tmp_path / "x")})
    assert chosen == str(tmp_path / "x" / source_hash(pkg, {}))


def test_writable_package_caches_beside_it(tmp_path):
    pkg = _package(tmp_path)
    assert choose_cache_dir(pkg, {}) == str(tmp_path / ".numba_cache" / source_hash(pkg, {}))


def test_any_kernel_source_edit_changes_the_folder(tmp_path):
    pkg = _package(tmp_path)
    (pkg / "analyzer" / "a.py").write_text("import numba\n\n@numba.njit\ndef f():\n    return 1\n")
    first = choose_cache_dir(pkg, {})
    (pkg / "analyzer" / "sub").mkdir()
    (pkg / "analyzer" / "sub" / "__init__.py").write_text("")
    (pkg / "analyzer" / "sub" / "b.py").write_text("y = 2\n")
    assert choose_cache_dir(pkg, {}) == first  # nothing jitted imports b.py yet
    (pkg / "analyzer" / "a.py").write_text(
        "import numba\n\nfrom analyzer.sub.b import y\n\n@numba.njit\ndef f():\n    return y\n")
    second = choose_cache_dir(pkg, {})
    (pkg / "analyzer" / "sub" / "b.py").write_text("y = 3\n")  # a global the kernel reads
    third = choose_cache_dir(pkg, {})
    assert len({first, second, third}) == 3


def _jitted_package(root):
    pkg = _package(root)
    (pkg / "analyzer" / "b.py").write_text("y = 2\n")
    (pkg / "analyzer" / "a.py").write_text(
        "import numba\n\nfrom analyzer.b import y\n\n@numba.njit\ndef f():\n    return y\n")
    return pkg


def test_the_kernel_sources_are_kept_in_a_memo_that_only_the_same_sources_read(
        tmp_path, monkeypatch):
    """Every command finds the kernels' sources at start: parsing the modules costs a fifth
    of a second, so the answer is kept in a memo keyed by every module's content. The memo
    gives the same answer without parsing; an edit to any module, a damaged memo or a folder
    that cannot take one gives the answer parsed afresh."""
    import json

    from analyzer import numba_env
    from analyzer.numba_env import MEMO_NAME, kernel_sources

    pkg = _jitted_package(tmp_path / "pkg")
    memo = tmp_path / "base" / MEMO_NAME
    parsed = kernel_sources(pkg)
    assert parsed == [pkg / "analyzer" / "a.py", pkg / "analyzer" / "b.py"]
    assert kernel_sources(pkg, memo) == parsed and memo.is_file()
    assert choose_cache_dir(pkg, {"NUMBA_CACHE_DIR": str(tmp_path / "base")}).endswith(
        source_hash(pkg, {}))
    assert source_hash(pkg, {}, memo) == source_hash(pkg, {})  # the memo's answer hashes alike
    user = tmp_path / "user-cache"  # a folder the user named: no memo written there
    choose_cache_dir(pkg, {"NUMBA_CACHE_DIR": str(user)})
    assert not (user / MEMO_NAME).exists()
    choose_cache_dir(pkg, {})  # the package's own base: the memo is kept
    assert (pkg / ".numba_cache" / MEMO_NAME).is_file()

    def no_parsing(*args):
        raise AssertionError("parsed although the memo holds these sources")

    with monkeypatch.context() as m:
        m.setattr(numba_env, "_module_imports", no_parsing)
        assert kernel_sources(pkg, memo) == parsed
    (pkg / "analyzer" / "b.py").write_text("y = 3\n")  # other sources: parsed again
    (pkg / "analyzer" / "a.py").write_text("z = 1\n")  # nothing jitted any more
    assert kernel_sources(pkg, memo) == []
    assert json.loads(memo.read_text())["sources"] == []
    memo.write_text("{damaged")
    assert kernel_sources(pkg, memo) == [] and json.loads(memo.read_text())["sources"] == []
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    assert kernel_sources(pkg, blocked / MEMO_NAME) == []  # cannot be kept: no memo, no error
    assert not [p for p in memo.parent.iterdir() if p.name.startswith(".")]  # no temporary


def test_weights_compile_to_one_folder_wherever_they_lie(tmp_path):
    """A weights file named by the environment (cardlab train's rounds) is hashed by the
    place it fills and its content, not its path: the same weights in another folder find
    the kernels compiled; other weights get their own folder."""
    pkg = _package(tmp_path / "pkg")
    (pkg / "strategies" / "jass").mkdir(parents=True)
    (pkg / "strategies" / "jass" / "learned.json").write_text('{"w": 1}')
    a, b, c = (tmp_path / "a.json", tmp_path / "run" / "b.json", tmp_path / "c.json")
    b.parent.mkdir()
    a.write_text('{"w": 2}')
    b.write_text('{"w": 2}')
    c.write_text('{"w": 3}')

    def folder(path=None):
        return source_hash(pkg, {} if path is None else {"CARDLAB_LEARNED_JASS": str(path)})

    assert folder(a) == folder(b) != folder(c)
    assert folder(a) != folder() == folder(pkg / "strategies" / "jass" / "learned.json")
    other_slot = source_hash(pkg, {"CARDLAB_VALUE_JASS": str(a)})  # the same file elsewhere
    assert other_slot not in {folder(a), folder()}


def test_settings_that_change_the_machine_code_change_the_folder(tmp_path):
    """numba's own cache key leaves out the optimisation level and the bounds checks: code
    compiled with NUMBA_OPT=0 or NUMBA_BOUNDSCHECK=1 must not be loaded by a later run
    without them (nor the other way round), so each gets folders of its own."""
    pkg = _package(tmp_path)
    plain = choose_cache_dir(pkg, {})
    low = choose_cache_dir(pkg, {"NUMBA_OPT": "0"})
    checked = choose_cache_dir(pkg, {"NUMBA_BOUNDSCHECK": "1"})
    assert len({plain, low, checked, choose_cache_dir(pkg, {"NUMBA_OPT": "1"})}) == 4
    assert choose_cache_dir(pkg, {"NUMBA_OPT": "0"}) == low
    assert choose_cache_dir(pkg, {"NUMBA_CACHE_DIR": ""}) == plain  # unrelated: same folder


def _copy_of_cardlab(tmp_path):
    import shutil

    from analyzer.numba_env import PACKAGE_ROOT

    for package in ("analyzer", "strategies"):
        shutil.copytree(PACKAGE_ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    return tmp_path


def test_editing_the_command_line_or_a_study_recompiles_no_kernel(tmp_path):
    """The cache folder (and so every compiled kernel) stays when a help string, a study or
    the reports change: they are not part of what the kernels are made of."""
    from analyzer.numba_env import kernel_sources

    pkg = _copy_of_cardlab(tmp_path)
    before = source_hash(pkg, {})
    for rel in ("analyzer/cli/app.py", "analyzer/studies/jokers.py", "analyzer/outputs.py",
                "analyzer/runner/folder.py", "analyzer/engines/ass/kernel.py"):
        assert pkg / rel not in kernel_sources(pkg), rel
        path = pkg / rel
        path.write_text(path.read_text() + "\nHELP = 'an edited help string'\n")
    assert source_hash(pkg, {}) == before


def test_editing_a_kernel_or_what_it_reads_recompiles(tmp_path):
    pkg = _copy_of_cardlab(tmp_path)
    before = source_hash(pkg, {})
    seen = {before}
    for rel in ("analyzer/games/ass/moves.py", "analyzer/games/jass/cards.py",
                "strategies/ass/pimc.py", "analyzer/rng.py"):
        path = pkg / rel
        path.write_text(path.read_text() + "\nEDITED = 1\n")
        seen.add(source_hash(pkg, {}))
    assert len(seen) == 5


def test_a_child_process_reuses_its_parents_choice(tmp_path):
    pkg = _package(tmp_path)
    chosen = str(tmp_path / "chosen")
    env = {"NUMBA_CACHE_DIR": chosen, "CARDLAB_NUMBA_CACHE": f"{pkg}{os.pathsep}{chosen}"}
    assert choose_cache_dir(pkg, env) == chosen
    other = _package(tmp_path / "copy")  # another package copy does not inherit it
    assert choose_cache_dir(other, env) == f"{chosen}/{source_hash(other, env)}"


def test_prune_keeps_the_newest_and_the_recent(tmp_path):
    for i, name in enumerate(["a" * 16, "b" * 16, "c" * 16]):
        (tmp_path / name).mkdir()
        os.utime(tmp_path / name, (1000 + i, 1000 + i))
    current = tmp_path / ("d" * 16)
    current.mkdir()
    prune(tmp_path, current, keep=2, age_s=10)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c" * 16, "d" * 16]


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write into read-only folders")
def test_read_only_package_uses_user_cache(tmp_path):
    pkg = _package(tmp_path / "site")
    pkg.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        chosen = choose_cache_dir(pkg, {"XDG_CACHE_HOME": str(tmp_path / "cache")})
    finally:
        pkg.chmod(stat.S_IRWXU)
    assert chosen == str(tmp_path / "cache" / "cardlab" / "numba" / source_hash(pkg, {}))


def test_read_only_package_as_root(tmp_path, monkeypatch):
    """os.access is what decides; simulate a read-only tree for root too."""
    pkg = _package(tmp_path / "site")
    monkeypatch.setattr("analyzer.numba_env.os.access", lambda p, mode: str(p) != str(pkg))
    chosen = choose_cache_dir(pkg, {"XDG_CACHE_HOME": str(tmp_path / "c")})
    assert chosen == str(tmp_path / "c" / "cardlab" / "numba" / source_hash(pkg, {}))
    assert (tmp_path / "c" / "cardlab" / "numba").is_dir()


def test_512_bit_vectors_are_preferred_only_on_avx512_and_unless_told(tmp_path):
    """The vector width (analyzer/numba_env.py): the host's features with -prefer-256-bit on
    an AVX-512 CPU; nothing on other CPUs, with CARDLAB_VECTOR_WIDTH=256 (or any value but
    512), or when the user set NUMBA_CPU_FEATURES."""
    from analyzer.numba_env import has_avx512, vector_features

    features = vector_features({}, True)
    assert features is not None and features.endswith(",-prefer-256-bit")
    assert "+" in features  # the host's own features come first
    assert vector_features({"CARDLAB_VECTOR_WIDTH": "512"}, True) == features
    assert vector_features({}, False) is None
    assert vector_features({"CARDLAB_VECTOR_WIDTH": "256"}, True) is None
    assert vector_features({"CARDLAB_VECTOR_WIDTH": "wide"}, True) is None
    assert vector_features({"NUMBA_CPU_FEATURES": "+sse2"}, True) is None
    info = tmp_path / "cpuinfo"
    info.write_text("processor : 0\nflags : fpu sse2 avx2 avx512f avx512bw\n")
    assert has_avx512(str(info))
    info.write_text("processor : 0\nflags : fpu sse2 avx2 avx512bw\n")
    assert not has_avx512(str(info))
    assert not has_avx512(str(tmp_path / "missing"))


def test_numba_reads_the_chosen_features():
    """In a fresh cardlab process numba's setting is the one chosen at import (None where
    nothing is chosen); worker processes get it through the same environment variable."""
    import subprocess
    import sys

    probe = ("import analyzer, os, numba; "
             "print(os.environ.get('NUMBA_CPU_FEATURES') == numba.config.CPU_FEATURES)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, env={k: v for k, v in os.environ.items()
                                          if k != "NUMBA_CPU_FEATURES"})
    assert out.stdout.strip() == "True"
