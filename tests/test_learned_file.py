"""The weights file of both games' ``learned`` family (strategies/learned_file.py): one
mechanism, checked once per game's model."""

from __future__ import annotations

import json

import numpy as np
import pytest

from strategies.ass import learned_weights as ass_weights
from strategies.jass import learned_weights as jass_weights

MODELS = {"ass": ass_weights.MODEL, "jass": jass_weights.MODEL}
OTHER = {"ass": "jass", "jass": "ass"}


def _doc(model):
    return model.document(np.arange(model.phases * model.n_features, dtype=float) / 7.0,
                          {"command": "test"})


@pytest.mark.parametrize("game", sorted(MODELS))
@pytest.mark.parametrize("damage, words", [
    (None, "is missing"),
    ("{not json", "is corrupt"),
    ("features", "feature set"),
    ("sha", "do not match"),
    ("shape", "shape"),
    ("game", "not a {title}"),
])
def test_weights_file_checks_name_the_file_in_one_line(tmp_path, game, damage, words):
    model = MODELS[game]
    path = tmp_path / "w.json"
    doc = _doc(model)
    if damage == "{not json":
        path.write_text(damage)
    elif damage is not None:
        if damage == "features":
            doc["features"] = f"{game}-linear-0"
        elif damage == "sha":
            doc["weights"][0][0] += 1.0
        elif damage == "shape":
            doc["weights"] = doc["weights"][:2]
        elif damage == "game":
            doc["game"] = OTHER[game]
        path.write_text(json.dumps(doc))
    with pytest.raises(ValueError) as err:
        model.load(path)
    message = str(err.value)
    assert words.format(title=model.title) in message and str(path) in message
    assert "\n" not in message
