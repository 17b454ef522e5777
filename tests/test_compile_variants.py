"""scripts/compile_variants.py reads numba's cache index files and lists the functions compiled
more than once, with the literal arguments that made the copies marked."""

import pickle
from pathlib import Path

from numba import types
from script_module import load


def _load():
    return load("compile_variants")


def _index(path: Path, sigs) -> None:
    """An index file as numba writes it: its version, then the pickled (stamp, overloads)."""
    overloads = {(sig, ("magic",), ()): f"{path.stem}-{k}.nbc" for k, sig in enumerate(sigs)}
    with path.open("wb") as f:
        pickle.dump("0.61.0", f, protocol=-1)
        f.write(pickle.dumps((("stamp", 1), overloads)))


def test_lists_each_function_with_several_signatures_and_marks_literals(tmp_path, capsys):
    folder = tmp_path / "ass_0123abcd"
    folder.mkdir()
    _index(folder / "rollout.play_on-59.py311.nbi",
           [(types.int64, types.literal(-1)), (types.int64, types.int64)])
    _index(folder / "engine.score-325.py311.nbi", [(types.uint64,)])
    cv = _load()
    assert cv.main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "2  ass/rollout.play_on" in out and "engine.score" not in out
    assert out.count("  literal") == 1 and "Literal[int](-1)" in out
    assert "2 functions in" in out and "1 compiled more than once" in out
    assert cv.main([str(tmp_path), "--all"]) == 0
    assert "1  ass/engine.score" in capsys.readouterr().out


def test_a_missing_folder_is_one_line_and_status_2(tmp_path, capsys):
    assert _load().main([str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: no cache folder")


def test_a_damaged_index_file_is_one_line_and_status_2(tmp_path, capsys):
    (tmp_path / "engine.score-1.py311.nbi").write_bytes(b"not a pickle")
    assert _load().main([str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "index file" in err[0]
