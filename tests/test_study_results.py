"""Study result folders: round trip, and one-line refusals of foreign or damaged folders."""

import json

import pandas as pd
import pytest

from analyzer.errors import CardlabError
from analyzer.studies.results import (
    StudyResult,
    base_manifest,
    find_studies,
    load_study,
    save_study,
)


def _result():
    table = pd.DataFrame({"players": [3, 4], "value": [1.5, 2.5], "label": ["x", "y"]})
    return StudyResult("seats", {"seats": table}, base_manifest("seats", seed=7, games=10),
                       ["an answer"])


def test_round_trip(tmp_path):
    folder = save_study(_result(), tmp_path)
    assert folder == tmp_path / "seats"
    assert (folder / "seats.csv").is_file() and (folder / "seats.parquet").is_file()
    back = load_study(folder)
    pd.testing.assert_frame_equal(back.table("seats"), _result().table("seats"))
    assert back.headlines == ["an answer"]
    assert back.manifest["seed"] == 7 and back.manifest["version"]
    assert [s.study for s in find_studies(tmp_path)] == ["seats"]
    assert [s.study for s in find_studies(folder)] == ["seats"]


def test_saving_again_replaces_the_study(tmp_path):
    save_study(_result(), tmp_path)
    other = _result()
    other.headlines = ["second"]
    save_study(other, tmp_path)
    assert load_study(tmp_path / "seats").headlines == ["second"]
    assert not any(p.name.startswith(".") for p in tmp_path.iterdir())


def test_foreign_and_damaged_folders_are_refused(tmp_path):
    with pytest.raises(CardlabError, match="no study results folder"):
        find_studies(tmp_path / "missing")
    with pytest.raises(CardlabError, match="holds no cardlab study results"):
        find_studies(tmp_path)
    folder = save_study(_result(), tmp_path)
    parquet = folder / "seats.parquet"
    parquet.write_bytes(parquet.read_bytes()[:-10])
    with pytest.raises(CardlabError, match="changed or is corrupt"):
        find_studies(tmp_path)
    (folder / "manifest.json").write_text("{not json")
    with pytest.raises(CardlabError, match="not readable JSON"):
        load_study(folder)
    (folder / "manifest.json").write_text(json.dumps({"format": "something-else"}))
    with pytest.raises(CardlabError, match="is not a cardlab-study/1 manifest"):
        load_study(folder)
    with pytest.raises(CardlabError, match="unknown study"):
        (folder / "manifest.json").write_text(json.dumps({"format": "cardlab-study/1",
                                                          "study": "nope"}))
        load_study(folder)


def test_error_messages_are_one_line(tmp_path):
    try:
        find_studies(tmp_path)
    except CardlabError as exc:
        assert "\n" not in str(exc)
