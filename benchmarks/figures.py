"""The figures every benchmark prints, computed one way."""

from __future__ import annotations

import numpy as np


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` as one of them (numpy's nearest rank, as a latency
    percentile is reported); NaN for none.

    >>> percentile([30.0, 10.0, 20.0, 40.0], 0.9), percentile([], 0.5)
    (40.0, nan)
    """
    return float(np.quantile(values, q, method="nearest")) if len(values) else float("nan")
