#!/usr/bin/env bash
# Render the tuning and validation sets models/README.md reads (each session starts with no data/),
# and write the real tuning set's cards.csv. Same seeds, same bytes: the figures in the model card
# were measured on exactly these scenes. About 25-30 minutes on two cores, most of it the phone-size ones.
#
#   bash training/eval/sets.sh            # all of them
#   bash training/eval/sets.sh tune       # the tuning sets only (choose on these)
#   bash training/eval/sets.sh val        # the validation sets only (read once, after choosing)
#
# Then, e.g.:
#   .venv/bin/python -m training eval data/real78 data/tune780 data/tune781 data/tune782 data/tune783 data/tune784 --wider-margin 0.4 --against models
#   .venv/bin/cribcount eval ../shared/photos/poker-cards-4 data/eval12345 data/evalphone \
#       data/evalY/yolo/images/eval data/evalYphone/yolo/images/eval
set -euo pipefail
cd "$(dirname "$0")/../.."
which=${1:-all}
synth() {  # synth OUT N SEED SPLIT SIZE: render unless its data.yaml (written last) is there
    [ -f "$1/yolo/data.yaml" ] || .venv/bin/cribcount synth --out "$1" --n "$2" --seed "$3" --split "$4" --size "$5" --no-crops
}

if [ "$which" = all ] || [ "$which" = tune ]; then
    # The real tuning photos: the 78 of poker-cards-4-train whose source photos went to the real
    # crops' validation split (never trained on); read from ../shared, never copied.
    mkdir -p data/real78
    ln -sfn "$(cd ../shared/photos/poker-cards-4-train && pwd)/images" data/real78/images
    .venv/bin/python - <<'EOF'
import csv
from training.data.real_crops import split_of
with open("../shared/photos/poker-cards-4-train/cards.csv", newline="") as f:
    rows = [r for r in csv.DictReader(f) if split_of(r["file"], 10) == "val"]
with open("data/real78/cards.csv", "w", newline="") as f:
    w = csv.DictWriter(f, ["file", "cards"])
    w.writeheader()
    w.writerows(rows)
print(f"data/real78: {len(rows)} real tuning photos")
EOF
    synth data/tune780 300 780 test 640:1600
    synth data/tune781 200 781 test 1800:3200
    synth data/tune782 200 782 test 1800:3200
    # Two more (a later release), to choose settings on more than 778 photos.
    synth data/tune783 300 783 test 640:1600
    synth data/tune784 200 784 test 1800:3200
    # Two rendered later still, to check that the tuning sets' long use was not what kept new
    # classifiers behind the shipped one (docs/experiments, The training crops looked at).
    synth data/tune785 300 785 test 640:1600
    synth data/tune786 200 786 test 1800:3200
fi
if [ "$which" = all ] || [ "$which" = val ]; then
    synth data/eval12345 200 12345 test 640:1600
    synth data/evalphone 150 12345 test 1800:3200
    synth data/evalY 200 12345 eval 640:1600
    synth data/evalYphone 150 12345 eval 1800:3200
fi
