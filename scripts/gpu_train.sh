#!/usr/bin/env bash
# Train a classifier on a lent GPU (the `device` tool's machine), from a crop pack carried in parts.
# It runs THERE, in the copy of the working tree the tool makes; nothing here calls it. Each call is
# sent the tracked tree (about 32 MB, the models most of it) and at most 64 MiB in all, so a pack
# travels in parts, one a call, and waits in /tmp/crib between calls while the machine stays warm
# (30 s; a carried folder is replaced whole on the next call, /tmp is not). docs/experiments
# ("A wider classifier from scratch on a lent GPU") says what it was used for and how long it took.
#
# Here, once (PyPI reaches this machine, not that one; the image there has torch but no Ultralytics;
# .whl/ and .devdata/ are git-ignored, so they travel only when carried):
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
#       --platform manylinux2014_x86_64 -d .whl ultralytics==8.4.190 ultralytics-thop==2.2.3 ultralytics-platform
#   .venv/bin/python -m training.crop_pack data/clsG --out .devdata/clsGpack --zip-parts 3 --max-side 96 ...
# The second classifier from scratch with every `none` crop kept (docs/experiments, "Every `none`
# crop": run once, read no better than the shipped one):
#   .venv/bin/python -m training.crop_pack data/clsG --out .devdata/clsGNpack --half det_ --half rp_ \
#       --drop rp2_ --none 100000 --val-fraction 0.15 --seed 7 --max-side 96 --zip-parts 4
#   (128,821 crops, four parts of 28.5 MB; a few minutes on two cores). With 15 minutes of device
#   time (starting the machine counts): parts 1-3 one call each, then part 4 with the training:
#   bash scripts/gpu_train.sh .devdata clsGNpack --hours 0.14 --epochs 100 --imgsz 96 --lr0 0.002 \
#       --warmup-epochs 1 --depth 0.5 --width 0.375 --seed 93 --blur-aug
#   As run: the start 35 s, each unpacking call 2-9 s, the training call 549 s (30 epochs), 280 s
#   left. The machine is given back after 30 s idle: send the next call at once.
# A detector from scratch on scenes (docs/experiments, "A detector from scratch with close-ups, on a
# lent GPU"): a training.det_data mix shrunk to 480 px WebP, five parts of 28 MB,
#   .venv/bin/python -m training.scene_pack data/detS --out .devdata/detSpack --max-side 480 --quality 80 --zip-parts 5
#   bash scripts/gpu_train.sh .devdata detSpack --hours 0.14 --imgsz 480 --depth 0.33 --width 0.125 --seed 71 \
#       --warmup-epochs 1 --lr0 0.002      # as run: start 43 s, parts 1-4 under 3 s a call, the training 532 s
# The first classifier from scratch (docs/experiments, "The thresholds asked again ..."): its pack,
# step 17's crop sources with the harvests redone by the shipped models, three parts of 28.8 MB,
#   .venv/bin/python -m training.crop_pack data/clsF --out .devdata/clsFpack --half det_ --half rp_ --none 8000 \
#       --val-fraction 0.15 --seed 7 --max-side 96 --zip-parts 3
#   bash scripts/gpu_train.sh .devdata clsFpack --hours 0.13 --epochs 100 --imgsz 96 --lr0 0.002 \
#       --warmup-epochs 1 --depth 0.5 --width 0.25 --seed 93 --blur-aug      # the last part's call
# The same with the chunky-club renders (docs/experiments, "The first classifier from scratch, with the
# chunky clubs, on a lent GPU"): step 17's sources plus data/rp3 and data/rp3v, four parts of 24.7 MB,
#   .venv/bin/python -m training.cls_data --out data/clsH <data/clsF's sources> chunky=data/rp3/cls chunkyv=data/rp3v/cls
#   .venv/bin/python -m training.crop_pack data/clsH --out .devdata/clsHpack --half det_ --half rp_ --none 8000 \
#       --val-fraction 0.15 --seed 7 --max-side 96 --zip-parts 4                  # 109,052 crops, 2 minutes
#   bash scripts/gpu_train.sh .devdata clsHpack --hours 0.145 --epochs 100 --imgsz 96 --lr0 0.002 \
#       --warmup-epochs 1 --depth 0.5 --width 0.25 --seed 93 --blur-aug      # the last part's call
#   As run: the start 46 s, parts 1-3 2-4 s a call, the training call 572 s (30 epochs), 249 s left.
# Next, not run on a GPU yet (docs/experiments, "Chunky clubs cleaned and weighted"): the same on clsHpack
# with the clubs of the chunky designs whose top lobe hardly rises left out and the other chunky
# clubs and spades three times, four parts of 27 MB. On a machine with no data/, one command makes it
# from nothing (every render and harvest it needs, harvested with the shipped models):
#   bash scripts/first_pack.sh 4
# and where data/clsH's sources are already there, only the last step:
#   .venv/bin/python -m training.chunky_clubs .devdata/clsHpack --out .devdata/clsJpack --scenes data/rp3 data/rp3v \
#       --zip-parts 4                                                            # 117,328 train crops, seconds
#   bash scripts/gpu_train.sh .devdata clsJpack --hours 0.145 --epochs 100 --imgsz 96 --lr0 0.002 \
#       --warmup-epochs 1 --depth 0.5 --width 0.25 --seed 93 --blur-aug      # the last part's call
# Then one `device run` a part, carrying [".whl", ".devdata/clsGpack.N.zip", ...]:
#   bash scripts/gpu_train.sh .devdata clsGpack                               # unpack only
#   bash scripts/gpu_train.sh .devdata clsGpack --hours 0.13 --width 0.375 --blur-aug ...   # last part: train
# The trained checkpoints (best.pt, last.pt, stripped: a few MB) and results.csv come back in $OUT;
# export them here with training.train_common.export_onnx.
set -euo pipefail
ZIPS=$1 PACK=$2
shift 2
T=/tmp/crib
mkdir -p "$T"
export PYTHONUNBUFFERED=1
if [ ! -d "$T/site/ultralytics" ]; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target "$T/site" .whl/*.whl
    # Ultralytics imports polars only to read back its results.csv, inside a try; the wheel is 50 MB.
    mkdir -p "$T/site/polars"
    echo 'def read_csv(*a, **k): raise RuntimeError("polars is not installed here")' > "$T/site/polars/__init__.py"
fi
export PYTHONPATH="$T/site:$PWD" YOLO_CONFIG_DIR="$T/yolo"
if [ ! -f "$T/yolo/Ultralytics/Arial.ttf" ]; then  # training.offline wants a font; there is no Debian one there
    mkdir -p "$T/yolo/Ultralytics"
    font=$(python3 -c "import matplotlib, os; print(os.path.join(os.path.dirname(matplotlib.__file__), 'mpl-data/fonts/ttf/DejaVuSans.ttf'))")
    cp "$font" "$T/yolo/Ultralytics/Arial.ttf"
    cp "$font" "$T/yolo/Ultralytics/Arial.Unicode.ttf"
fi
for z in "$ZIPS"/"$PACK"*.zip; do
    [ -e "$z" ] || continue
    done_mark="$T/$(basename "$z").done"
    [ -f "$done_mark" ] || { python3 -c "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])" "$z" "$T/packs" && touch "$done_mark"; }
done
echo "images unpacked: $(find "$T/packs/$PACK" -name '*.webp' | wc -l)"
[ $# -gt 0 ] || exit 0
nvidia-smi -L || true
# An absolute --project: Ultralytics puts a relative one under runs/classify/. A pack with a data.yaml
# is a detector's scenes (training.scene_pack), one of class folders a classifier's crops (training.crop_pack).
if [ -f "$T/packs/$PACK/data.yaml" ]; then
    python3 -m training.train_detector --data "$T/packs/$PACK/data.yaml" --project "$T/runs" --name gpu --no-export \
        --workers 14 --batch 64 "$@" 2>&1 | grep -v "━" || true
else
    python3 -m training.train_classifier --data "$T/packs/$PACK" --project "$T/runs" --name gpu --no-export \
        --workers 14 --batch 256 "$@" 2>&1 | grep -v "━" || true
fi
mkdir -p "${OUT:-.}"
cp "$T/runs/gpu/weights/best.pt" "$T/runs/gpu/weights/last.pt" "$T/runs/gpu/results.csv" "${OUT:-.}/"
