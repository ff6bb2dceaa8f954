"""The scorer's lab tables: the opponent model's weights from throw counts, the published discard tables."""

import numpy as np

from scorer.opponent import PAIRS_IN_CLASS
from training.tables.discards import gaps, published
from training.tables.opponent import model_from_counts


def test_weights_from_counts_average_one_over_the_deck_pairs():
    counts = np.zeros((13, 13, 2))
    counts[4, 4, 0] = 100  # a pair of fives, thrown a hundred times
    model = model_from_counts("fives", {"dealer": counts}, {"dealer3": np.arange(13.0)})
    weights = model.pairs["dealer"]
    upper = np.triu(np.ones((13, 13)))[:, :, None]
    assert np.isclose((weights * PAIRS_IN_CLASS * upper).sum() / 1326, 1.0)  # C(52, 2) deck pairs
    assert weights[4, 4, 0] == weights.max() and (weights == weights.transpose(1, 0, 2)).all()
    assert np.isclose(model.singles["dealer3"].mean(), 1.0)


def test_published_tables_are_symmetric_13_by_13():
    for entry in published().values():
        values = np.array(entry["values"])
        assert values.shape == (13, 13) and (values == values.T).all() and entry["source"].startswith("http")


def test_the_opponent_model_is_closer_than_uniform_to_every_published_table():
    found, _ = gaps()
    by = {(g.table, g.model): g.mean_absolute for g in found}
    for table in published():
        assert by[(table, "table")] < by[(table, "uniform")], table
