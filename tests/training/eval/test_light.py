"""`python -m training eval --light`: the samples read relit in memory."""

from pathlib import Path

import pytest

from vision.config import MODELS_DIR

SAMPLE = Path(__file__).resolve().parents[3] / "sample_images" / "row-on-a-wood-table.jpg"


@pytest.mark.skipif(not (MODELS_DIR / "detector.onnx").exists(), reason="the shipped models are not there")
def test_eval_reads_labelled_photos_in_made_light(capsys):
    import json

    from training.eval.cli import main

    samples = str(SAMPLE.parent)
    assert main([samples, "--light", "dim-warm", "--json"]) == 0
    (figures,) = json.loads(capsys.readouterr().out)
    assert figures["name"].endswith("in dim-warm light") and figures["photos"] == 5
    assert figures["card_accuracy"] == 1.0 and figures["false_cards"] == 0
    with pytest.raises(SystemExit) as refused:  # argparse's usage error: the message and exit status 2
        main([samples, "--light", "candle"])
    assert refused.value.code == 2 and "--light" in capsys.readouterr().err
