#!/usr/bin/env bash
# Retrain the shipped models from nothing, on this machine's CPU (or a GPU when one is there),
# offline. Every step is resumable: re-run the script and finished steps are skipped, a training
# interrupted mid-way continues from runs/<name>/weights/last.pt.
#
#   bash scripts/setup.sh --train      # once: torch + ultralytics in .venv
#   bash scripts/retrain.sh            # about 18 h on two CPU cores for steps 1-16, timed when training used
#                                      # one thread of them (a thread per core now, docs/experiments, not timed
#                                      # since); steps 17, 18 and 19, each run on a lent H200 first, about 13 h,
#                                      # 12 h and 4 h more; step 20 a quarter of an hour
#   bash scripts/first_pack.sh         # only steps 19-20's pack, harvested with the shipped models (42 min)
#
# The renders' seeds, sizes and decks, the harvests and that pack are defined in scripts/sources.sh.
#
# Steps (models/README.md lists them, docs/experiments says why each is there):
#   1. synthetic scenes: 4000 at 640 px for the detector, 1200 phone-size ones for sharp crops
#   2. detector: slim YOLO11 on corner indices, 16 epochs at 480 px
#   3. classifier: YOLO11-cls on 64 px index crops (52 cards + none), 12 epochs
#   4. real crops from ../shared/photos/poker-cards-4-train, labelled by its whole-card boxes
#   5. classifier fine-tuned on synthetic + real crops, 4 epochs
#   6. real crops again, harvested with the fine-tuned classifier (more cards vouched for, and
#      pips the detector fires on kept as `none`), and a second fine-tune, 10 epochs
#   7. the classifier fine-tuned at 96 px (sharper suits), 4 epochs on the same crops
#   8. more decks: ten procedural decks whose suits come from fonts' suit characters (640 px and
#      phone-size scenes) and 367 more phone-size scenes of the original decks; a second 96 px
#      classifier fine-tuned on all of it, 3 epochs (the recognizer asks it about the indices the
#      first is unsure of and averages the two readings)
#   9. the detector fine-tuned from its best weights, 6 more epochs at a fresh learning rate
#  10. real photos as detector scenes: index boxes the step-9 models find and the whole-card labels
#      vouch for; the detector fine-tuned 5 epochs on them (x4) with renders of old and new decks
#  11. 160 randomized procedural decks (rank fonts, suit fonts, drawn suits, chunky clubs): the
#      second classifier fine-tuned on their scenes, 3 + 2 epochs
#  12. the same decks down to 600 px: step 11's classifier and its 3-epoch parent each
#      fine-tuned 2 more epochs: the second of three (step 8's is the third), and the first's start
#  13. four fine-tunes of step 12's first classifier (side-by-side designs, glyph warp, card-back
#      corners), averaged into one network (a model soup), then one epoch more with real pips and
#      court figures as `none`: the first of three
#  14. a wider classifier (width 0.375) trained from scratch on step 13's crops plus crops at the
#      detector's own boxes on the renders: the second of three
#  15. after the mirrored-render fix: the detector fine-tuned 2 epochs on renders as printed, each
#      classifier fine-tuned in three rounds at falling rates (docs/experiments, "Mirrored renders")
#  16. the first classifier fine-tuned once more with camera blur on scenes with numbered boards and
#      the real crops harvested again, 4 epochs (docs/experiments, "Blurred photos")
#  17. a second classifier from scratch with camera blur (width 0.375, 40 epochs) on every crop
#      source above, then one epoch with more `none` crops: models/classifier2.onnx (docs/experiments,
#      "A wider classifier from scratch on a lent GPU"; about 13 h on two cores, 8 min on an H200)
#  18. a detector from scratch with close-ups (cut from step 1's phone-size renders) beside every
#      detector scene above and the real scenes, 47 epochs at 480 px: models/detector.onnx
#      (docs/experiments, "A detector from scratch with close-ups, on a lent GPU"; about 12 h on
#      two cores, 8.4 min on an H200)
#  19. the first classifier from scratch with camera blur (width 0.25, 30 epochs) on step 17's crop
#      sources and the chunky-club renders: models/classifier.onnx; step 16's is kept as the third
#      (docs/experiments, "The first classifier from scratch, with the chunky clubs, on a lent GPU";
#      about 4 h on two cores, 10 min on an H200)
#  20. step 19's classifier fine-tuned 2 epochs with the chunky clubs that look like spades left out
#      and the rest weighted, averaged with step 19's: models/classifier.onnx (docs/experiments,
#      "Chunky clubs cleaned and weighted"; about 15 min on two cores)
#  21. the exports copied into models/
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
export PYTHONUNBUFFERED=1
mkdir -p data/logs runs/export

step() { echo; echo "== $*"; }

# RETRAIN_TINY=1 runs every step at a few scenes and one epoch: minutes, not hours, to prove the
# chain of commands still runs end to end (scripts/retrain_smoke.sh runs it in a scratch clone).
# Its models are not models; only the commands are being checked.
TINY=${RETRAIN_TINY:-0}
scenes() { if [ "$TINY" = 1 ]; then echo "$2"; else echo "$1"; fi; }  # scenes FULL TINY
epochs() { if [ "$TINY" = 1 ]; then echo 1; else echo "$1"; fi; }
# The harvests (real crops and scenes, mined crops) vouch for what they keep with the models so far;
# one-epoch models vouch for nothing, so at tiny scale they harvest with the shipped models instead.
harvester() { if [ "$TINY" = 1 ]; then echo models; else echo "$1"; fi; }

# models_dir DIR DETECTOR CLASSIFIER [CLASSIFIER2 [CLASSIFIER3]]: a models folder for the harvesters
# (or models/ itself, to ship), from the exports in runs/export (each .onnx with its .json sidecar).
models_dir() {
    local dir=$1 target
    shift
    mkdir -p "$dir"
    for target in detector classifier classifier2 classifier3; do
        [ $# -gt 0 ] || break
        cp "runs/export/$1.onnx" "$dir/$target.onnx"
        cp "runs/export/$1.json" "$dir/$target.json"
        shift
    done
}

# The renders (seeds, sizes, decks), the harvests and the first classifier's pack, by name.
source scripts/sources.sh

step "1. synthetic scenes"
render det hires
$PY -m training.cls_data --out data/clsall det=data/det/cls hires=data/hires/cls:2

step "2. detector"
[ -f runs/export/detector.onnx ] || $PY -m training.train_detector --data data/det/yolo/data.yaml \
    --epochs $(epochs 16) --imgsz 480 --name det480 --resume --export-to runs/export/detector.onnx

step "3. classifier on synthetic crops"
[ -f runs/export/classifier.onnx ] || $PY -m training.train_classifier --data data/clsall \
    --epochs $(epochs 12) --imgsz 64 --batch 128 --name cls64 --resume --export-to runs/export/classifier.onnx

step "4. real index crops (poker-cards-4-train; never poker-cards-4)"
if [ ! -d data/realcls/train ]; then
    $PY -m training.real_crops --photos ../shared/photos/poker-cards-4-train --out data/realcls \
        --models "$(harvester runs/export)" --copies 2 --index-confidence 0.25
fi
$PY -m training.cls_data --out data/clsft det=data/det/cls hires=data/hires/cls:2 real=data/realcls:3

step "5. classifier fine-tuned on synthetic + real crops"
[ -f runs/export/classifier-ft.onnx ] || $PY -m training.train_classifier --data data/clsft \
    --epochs $(epochs 4) --imgsz 64 --batch 128 --lr0 0.0005 --name cls64ft --resume \
    --init runs/cls64/weights/best.pt --export-to runs/export/classifier-ft.onnx

step "6. real crops with the round-1 models, second fine-tune"
models_dir runs/round1 detector classifier-ft
if [ ! -d data/realcls2/train ]; then
    $PY -m training.real_crops --photos ../shared/photos/poker-cards-4-train --out data/realcls2 \
        --models "$(harvester runs/round1)" --copies 2 --index-confidence 0.1
fi
$PY -m training.cls_data --out data/clsft2 det=data/det/cls hires=data/hires/cls:2 real=data/realcls2:3
[ -f runs/export/classifier-ft2.onnx ] || $PY -m training.train_classifier --data data/clsft2 \
    --epochs $(epochs 10) --imgsz 64 --batch 128 --lr0 0.0008 --name cls64ft2 --resume \
    --init runs/cls64ft/weights/best.pt --export-to runs/export/classifier-ft2.onnx

step "7. classifier at 96 px"
[ -f runs/export/classifier-96.onnx ] || $PY -m training.train_classifier --data data/clsft2 \
    --epochs $(epochs 4) --imgsz 96 --batch 128 --lr0 0.0005 --warmup-epochs 0.5 --name cls96ft --resume \
    --init runs/cls64ft2/weights/best.pt --export-to runs/export/classifier-96.onnx

step "8. font-suit decks, more phone-size scenes, a second 96 px classifier"
render det2 hires3 hires2
$PY -m training.cls_data --out data/clsft3 det=data/det/cls det2=data/det2/cls hires=data/hires/cls:2 \
    hires2=data/hires2/cls:2 hires3=data/hires3/cls:2 real=data/realcls2:3
[ -f runs/export/classifier-96mix.onnx ] || $PY -m training.train_classifier --data data/clsft3 \
    --epochs $(epochs 3) --imgsz 96 --batch 128 --lr0 0.0008 --warmup-epochs 0.5 --name cls96mix --resume \
    --init runs/cls64ft2/weights/best.pt --export-to runs/export/classifier-96mix.onnx

step "9. detector fine-tune"
[ -f runs/export/detector-ft.onnx ] || $PY -m training.train_detector --data data/det/yolo/data.yaml \
    --epochs $(epochs 6) --imgsz 480 --lr0 0.001 --warmup-epochs 0.5 --name det480ft --resume \
    --init runs/det480/weights/best.pt --export-to runs/export/detector-ft.onnx

step "10. real photos as detector scenes, detector fine-tuned on a mix"
models_dir runs/round2 detector-ft classifier-96 classifier-96mix
[ -d data/realdet/images/train ] || $PY -m training.real_scenes --photos ../shared/photos/poker-cards-4-train \
    --out data/realdet --models "$(harvester runs/round2)"
$PY -m training.det_data --out data/detmix data/det/yolo@1200/150 data/det2/yolo@1200/100 'data/realdet*4'
[ -f runs/export/detector-mix.onnx ] || $PY -m training.train_detector --data data/detmix/data.yaml \
    --epochs $(epochs 5) --imgsz 480 --lr0 0.001 --warmup-epochs 0.3 --name det480mix --resume \
    --init runs/det480ft/weights/best.pt --export-to runs/export/detector-mix.onnx

step "11. randomized decks: a 96 px classifier fine-tuned on 160 generated designs"
# Real crops harvested again with the models as shipped before this step.
models_dir runs/round3 detector-mix classifier-96 classifier-96mix
render rp rp2 rpv old
[ -d data/realcls3/train ] || $PY -m training.real_crops --photos ../shared/photos/poker-cards-4-train --out data/realcls3 \
    --models "$(harvester runs/round3)" --copies 2 --index-confidence 0.1
mkdir -p data/rpv/cls/train  # a val-only crop set
$PY -m training.cls_data --out data/clsrp rp=data/rp/cls rp2=data/rp2/cls rpv=data/rpv/cls old=data/old/cls real=data/realcls3:2
[ -f runs/export/classifier-rand.onnx ] || $PY -m training.train_classifier --data data/clsrp \
    --epochs $(epochs 3) --imgsz 96 --batch 128 --lr0 0.0008 --warmup-epochs 0.3 --seed 1 --name cls96rand2 --resume \
    --init runs/export/classifier-96mix.onnx --export-to runs/export/classifier-rand.onnx
# then the chunky-club designs, 2 more epochs: models/classifier.onnx
render rp3 rp3v
mkdir -p data/rp3v/cls/train
$PY -m training.cls_data --out data/clsrp3 rp3=data/rp3/cls rp3v=data/rp3v/cls rp=data/rp/cls rpv=data/rpv/cls \
    old=data/old/cls real=data/realcls3:2
[ -f runs/export/classifier-chunky.onnx ] || $PY -m training.train_classifier --data data/clsrp3 \
    --epochs $(epochs 2) --imgsz 96 --batch 128 --lr0 0.0005 --warmup-epochs 0.2 --seed 2 --name cls96chunky --resume \
    --init runs/cls96rand2/weights/best.pt --export-to runs/export/classifier-chunky.onnx

step "12. the randomized decks at low resolution too: two more fine-tunes, step 13's start and the second classifier before step 14"
# Step 11's scenes were 800-2200 px: these reach down to 600 px, where held-out renders put
# an index in 15 px. The chunky-club designs go in with the others.
render rpA oldA rpAv
mkdir -p data/rpAv/cls/train
$PY -m training.cls_data --out data/clsA2 rpA=data/rpA/cls rpAv=data/rpAv/cls oldA=data/oldA/cls rp3=data/rp3/cls \
    rp3v=data/rp3v/cls real=data/realcls3:2
# Two runs on the same crops from two starting points (the two run side by side on two cores).
[ -f runs/export/classifier-96lo.onnx ] || $PY -m training.train_classifier --data data/clsA2 \
    --epochs $(epochs 2) --imgsz 96 --batch 128 --lr0 0.0005 --warmup-epochs 0.2 --seed 3 --name cls96lo --resume \
    --init runs/cls96chunky/weights/best.pt --export-to runs/export/classifier-96lo.onnx
[ -f runs/export/classifier-96lo2.onnx ] || $PY -m training.train_classifier --data data/clsA2 \
    --epochs $(epochs 2) --imgsz 96 --batch 128 --lr0 0.0005 --warmup-epochs 0.2 --seed 4 --name cls96lo2 --resume \
    --init runs/cls96rand2/weights/best.pt --export-to runs/export/classifier-96lo2.onnx

step "13. four fine-tunes of step 12's first classifier, their soup, and the soup fine-tuned once more: models/classifier.onnx"
# 120 designs, half with the suit beside the rank, a quarter with chunky clubs; "none" crops at the
# corners of card backs, and the glyph warp: each one fine-tune of cls96lo, 2 epochs, seed 6.
render rpS rpSv
mkdir -p data/rpSv/cls/train
for name in rpA rpAv oldA rp3 rp3v rpS rpSv; do
    [ -d "data/backs_$name" ] || .venv/bin/cribcount synth --out "data/backs_$name" --back-corners-of "data/$name"
    mkdir -p "data/backs_$name/train" "data/backs_$name/val"
done
A2="rpA=data/rpA/cls rpAv=data/rpAv/cls oldA=data/oldA/cls rp3=data/rp3/cls rp3v=data/rp3v/cls real=data/realcls3:2"
BACKS="bA=data/backs_rpA bAv=data/backs_rpAv bO=data/backs_oldA b3=data/backs_rp3 b3v=data/backs_rp3v"
$PY -m training.cls_data --out data/clsS $A2 rpS=data/rpS/cls rpSv=data/rpSv/cls
$PY -m training.cls_data --out data/clsSB $A2 rpS=data/rpS/cls rpSv=data/rpSv/cls $BACKS bS=data/backs_rpS bSv=data/backs_rpSv
$PY -m training.cls_data --out data/clsAB $A2 $BACKS
ingredient() {  # NAME DATA [--glyph-aug]
    [ -f "runs/export/classifier-96$1.onnx" ] || $PY -m training.train_classifier --data "data/$2" "${@:3}" \
        --epochs $(epochs 2) --imgsz 96 --batch 128 --lr0 0.0005 --warmup-epochs 0.2 --seed 6 --name "cls96$1" --resume \
        --init runs/cls96lo/weights/best.pt --export-to "runs/export/classifier-96$1.onnx"
}
ingredient side clsS
ingredient glyph clsS --glyph-aug
ingredient backs clsSB
ingredient lob clsAB
mkdir -p runs/soup
[ -f runs/soup/L4.pt ] || $PY -m training.soup runs/cls96side/weights/best.pt runs/cls96glyph/weights/best.pt \
    runs/cls96backs/weights/best.pt runs/cls96lob/weights/best.pt --out runs/soup/L4.onnx --checkpoint runs/soup/L4.pt
# Real "none" crops of pips and court figures, from the middle of the labelled cards, harvested with
# the models of steps 10-12 (shipped before this step); then one epoch of the soup at a low rate.
models_dir runs/round4 detector-mix classifier-96lo classifier-96lo2 classifier-96mix
[ -d data/realmid/train ] || $PY -m training.real_crops --photos ../shared/photos/poker-cards-4-train --out data/realmid \
    --models "$(harvester runs/round4)" --copies 0 --middle-none 4 --index-confidence 0.1 --seed 19
$PY -m training.cls_data --out data/clsABN ab=data/clsAB mid=data/realmid
[ -f runs/export/classifier-96L4N.onnx ] || $PY -m training.train_classifier --data data/clsABN \
    --epochs $(epochs 1) --imgsz 96 --batch 128 --lr0 0.0002 --warmup-epochs 0.1 --seed 19 --name cls96L4N --resume \
    --init runs/soup/L4.pt --export-to runs/export/classifier-96L4N.onnx

step "14. a wider second opinion, from scratch: models/classifier2.onnx"
# The detector's own boxes on step 12's scenes, filed under the card each lands on (partial and
# shifted boxes, as the classifier meets them at run time), harvested with step 13's models.
models_dir runs/round5 detector-mix classifier-96L4N classifier-96lo2 classifier-96mix
[ -d data/detboxM/train ] || $PY -m training.mined_crops --scenes data/rpA data/rpAv data/oldA data/rp3 data/rp3v \
    --out data/detboxM --models "$(harvester runs/round5)" --cards --per-scene 3 --seed 911
$PY -m training.cls_data --out data/clsMD $A2 $BACKS mid=data/realmid db=data/detboxM
[ -f runs/export/classifier-96W7.onnx ] || $PY -m training.train_classifier --data data/clsMD \
    --epochs $(epochs 7) --imgsz 96 --batch 128 --lr0 0.002 --depth 0.5 --width 0.375 --seed 52 --name cls96W7 --resume \
    --export-to runs/export/classifier-96W7.onnx

step "15. cards as printed: the detector fine-tuned once more, the first two classifiers in three rounds"
# Until the fix in training/synth/scene.py (make_camera) every render showed its cards mirrored, so
# steps 1-14 of the release before were trained on mirrored cards. That release's models were
# fine-tuned on their own data mirrored back (scripts/unmirror_data.py, which the fixed engine's
# renders do not need: here every scene above is already drawn as printed). The detector's mix:
# phone-size and 640 px renders of the training decks and the real scenes labelled again.
render det608 det608v det640
[ -d data/realdetS/images/train ] || $PY -m training.real_scenes --photos ../shared/photos/poker-cards-4-train \
    --out data/realdetS --models "$(harvester runs/round5)"
# data/det640 is rendered train-only (--split train): the mix's val is det608v's and the real scenes'.
$PY -m training.det_data --out data/detU data/det608/yolo@1200/0 data/det608v/yolo@0/100 data/det640/yolo@600/0 'data/realdetS*3'
[ -f runs/export/detector-U.onnx ] || $PY -m training.train_detector --data data/detU/data.yaml \
    --epochs $(epochs 2) --imgsz 480 --depth 0.33 --width 0.125 --lr0 0.001 --warmup-epochs 0.3 --seed 64 --name det480U \
    --resume --init runs/export/detector-mix.onnx --export-to runs/export/detector-U.onnx
[ -f runs/export/classifier-96U0.onnx ] || $PY -m training.train_classifier --data data/clsMD \
    --epochs $(epochs 2) --imgsz 96 --batch 128 --lr0 0.0005 --warmup-epochs 0.2 --seed 61 --name cls96U0 --resume \
    --init runs/export/classifier-96L4N.onnx --export-to runs/export/classifier-96U0.onnx
[ -f runs/export/classifier-96U0b.onnx ] || $PY -m training.train_classifier --data data/clsMD \
    --epochs $(epochs 2) --imgsz 96 --batch 128 --lr0 0.0003 --warmup-epochs 0.1 --seed 65 --name cls96U0b --resume \
    --init runs/cls96U0/weights/last.pt --export-to runs/export/classifier-96U0b.onnx
[ -f runs/export/classifier-96UW.onnx ] || $PY -m training.train_classifier --data data/clsMD \
    --epochs $(epochs 2) --imgsz 96 --batch 128 --lr0 0.0005 --warmup-epochs 0.2 --depth 0.5 --width 0.375 --seed 62 \
    --name cls96UW --resume --init runs/export/classifier-96W7.onnx --export-to runs/export/classifier-96UW.onnx
[ -f runs/export/classifier-96UWb.onnx ] || $PY -m training.train_classifier --data data/clsMD \
    --epochs $(epochs 1) --imgsz 96 --batch 128 --lr0 0.0002 --warmup-epochs 0.1 --depth 0.5 --width 0.375 --seed 67 \
    --name cls96UWb --resume --init runs/cls96UW/weights/last.pt --export-to runs/export/classifier-96UWb.onnx
# One more round of each at a lower rate: the two the release after shipped.
[ -f runs/export/classifier-96U0c.onnx ] || $PY -m training.train_classifier --data data/clsMD \
    --epochs $(epochs 4) --imgsz 96 --batch 128 --lr0 0.0003 --warmup-epochs 0.1 --seed 68 --name cls96U0c --resume \
    --init runs/cls96U0b/weights/last.pt --export-to runs/export/classifier-96U0c.onnx
[ -f runs/export/classifier-96UWc.onnx ] || $PY -m training.train_classifier --data data/clsMD \
    --epochs $(epochs 3) --imgsz 96 --batch 128 --lr0 0.0003 --warmup-epochs 0.1 --depth 0.5 --width 0.375 --seed 69 \
    --name cls96UWc --resume --init runs/cls96UWb/weights/last.pt --export-to runs/export/classifier-96UWc.onnx

step "16. the first classifier fine-tuned once more, with camera blur (--blur-aug): models/classifier.onnx"
# Scenes whose board prints its counts (a board in nine of ten), none crops where the step-15
# detector fires off the indices (numerals, pips, court figures), the real crops and real pips
# harvested again with the step-15 models; packed small (training.crop_pack: every synthetic index
# crop, one copy of half the real ones, 6,000 none, a quarter of val, as WebP, what one call to a
# lent GPU carries), then 4 epochs with each crop blurred, two in five, up to the legible limit
# (docs/experiments, "Blurred photos"; the release that added it ran this step on a lent H200).
models_dir runs/round6 detector-U classifier-96U0c classifier-96UWc
render nbT nbV
harvest "$(harvester runs/round6)" data/nbM data/realcls4 data/realmid4
if [ ! -d data/clsNBpack/train ]; then
    $PY -m training.cls_data --out data/clsNB nb=data/nbT/cls nbv=data/nbV/cls mined=data/nbM:2 \
        real=data/realcls4:2 mid=data/realmid4
    $PY -m training.crop_pack data/clsNB --out data/clsNBpack --half real_ --drop real2_ --none 6000 \
        --val-fraction 0.25 --seed 7
fi
[ -f runs/export/classifier-96blur.onnx ] || $PY -m training.train_classifier --data data/clsNBpack \
    --epochs $(epochs 4) --imgsz 96 --batch 256 --lr0 0.0003 --warmup-epochs 0.1 --seed 71 --blur-aug \
    --name cls96blur --resume --init runs/export/classifier-96U0c.onnx --export-to runs/export/classifier-96blur.onnx

step "17. a second classifier from scratch with camera blur, then more none: models/classifier2.onnx"
# Every crop source of steps 1-16, cards as printed, packed as the lent H200 read them (half of the
# 640 px and randomized-deck crops, 8,000 none, crops shrunk to 96 px); there --hours 0.13 came to
# 40 epochs. Then one epoch on the phone-size, numbered-board and real card crops with 20,000 none
# (pips, numerals, court figures), which the first 40 epochs had seen too few of.
# Step 19 reads the same sources (less rp2, which this step's pack drops): scripts/sources.sh names them.
crop_sources data/nbM data/realcls4 data/realmid4
$PY -m training.cls_data --out data/clsG "${CROP_SOURCES[@]}" rp2=data/rp2/cls
[ -d data/clsGpack/train ] || $PY -m training.crop_pack data/clsG --out data/clsGpack --half det_ --half rp_ \
    --drop rp2_ --none 8000 --val-fraction 0.15 --seed 7 --max-side 96
[ -d data/clsGft/train ] || $PY -m training.crop_pack data/clsG --out data/clsGft --drop det_ --drop det2_ \
    --drop rp_ --drop rp2_ --drop old_ --none 20000 --val-fraction 0.15 --seed 8 --max-side 96
[ -f runs/export/classifier-96G.onnx ] || $PY -m training.train_classifier --data data/clsGpack \
    --epochs $(epochs 40) --imgsz 96 --batch 256 --lr0 0.002 --warmup-epochs 1 --depth 0.5 --width 0.375 \
    --seed 93 --blur-aug --name cls96G --resume --export-to runs/export/classifier-96G.onnx
[ -f runs/export/classifier-96Gft.onnx ] || $PY -m training.train_classifier --data data/clsGft \
    --epochs 1 --imgsz 96 --batch 128 --lr0 0.0003 --warmup-epochs 0.1 --depth 0.5 --width 0.375 --seed 95 \
    --blur-aug --name cls96Gft --resume --init runs/cls96G/weights/best.pt --export-to runs/export/classifier-96Gft.onnx

step "18. a detector from scratch with close-ups: models/detector.onnx"
# Step 1's 640 px renders, close-ups cut from its phone-size ones (an index 35-80 px at 480, which
# the 640 px renders rarely show: docs/experiments, "Big indices"), step 15's phone-size and 640 px
# renders, and the real scenes labelled again by the step-17 models, three times; shrunk to 480 px
# WebP (training.scene_pack: the pack a lent H200 trained on, sent in five calls of 28 MB), where
# --hours 0.14 came to 47 epochs.
models_dir runs/round7 detector-U classifier-96blur classifier-96Gft
[ -f data/closeups/data.yaml ] || $PY -m training.close_ups data/hires/yolo --out data/closeups --per-scene 2 --seed 5
[ -d data/realdetShip/images/train ] || $PY -m training.real_scenes --photos ../shared/photos/poker-cards-4-train \
    --out data/realdetShip --models "$(harvester runs/round7)"
$PY -m training.det_data --out data/detS --seed 3 data/det/yolo@3400/150 data/closeups@2009/50 \
    data/det608/yolo@1200/0 data/det640/yolo@600/0 'data/realdetShip*3'
[ -f data/detSpack/data.yaml ] || $PY -m training.scene_pack data/detS --out data/detSpack --max-side 480 --quality 80
[ -f runs/export/detector-S.onnx ] || $PY -m training.train_detector --data data/detSpack/data.yaml \
    --epochs $(epochs 47) --imgsz 480 --depth 0.33 --width 0.125 --lr0 0.002 --warmup-epochs 1 --seed 71 \
    --name det480S --resume --export-to runs/export/detector-S.onnx

step "19. the first classifier from scratch, with the chunky clubs: models/classifier.onnx"
# Step 17's crop sources and pack, with step 11's chunky-club renders (data/rp3, data/rp3v) whole:
# a run without them, read at epoch 18 of 40, read gnome-plastic's clubs as spades (docs/experiments,
# "A first classifier from scratch, read half-way"). At the first classifier's
# width (0.25); a lent H200's --hours 0.145 came to 30 epochs. Step 16's classifier stays as the
# third, read only where this one is unsure.
first_pack data/clsHpack data/clsJpack  # and step 20's pack
[ -f runs/export/classifier-96H.onnx ] || $PY -m training.train_classifier --data data/clsHpack \
    --epochs $(epochs 30) --imgsz 96 --batch 256 --lr0 0.002 --warmup-epochs 1 --depth 0.5 --width 0.25 \
    --seed 93 --blur-aug --name cls96H --resume --export-to runs/export/classifier-96H.onnx

step "20. the chunky clubs cleaned and weighted: step 19's classifier fine-tuned, and the two averaged"
# The chunky designs whose club's top lobe hardly rises draw clubs a person takes for spades at the
# sizes rendered; their clubs are left out and the rest of the family's clubs and spades counted
# three times (training.chunky_clubs). Two epochs from step 19's weights on that pack, then the two
# networks' weights averaged. The fine-tune alone read gnome-plastic's clubs better and, like any
# short fine-tune of it on two cores, other cards a little worse; the average read more cards on six
# tuning sets of seven and fewer on none (docs/experiments, "Chunky clubs cleaned and weighted";
# about 15 minutes on two cores).
[ -f runs/export/classifier-96J.onnx ] || $PY -m training.train_classifier --data data/clsJpack \
    --epochs $(epochs 2) --imgsz 96 --batch 128 --lr0 0.0003 --warmup-epochs 0.1 --depth 0.5 --width 0.25 \
    --seed 97 --blur-aug --name cls96J --resume --init runs/cls96H/weights/best.pt \
    --export-to runs/export/classifier-96J.onnx
[ -f runs/export/classifier-soupHJ.onnx ] || $PY -m training.soup runs/cls96H/weights/best.pt \
    runs/cls96J/weights/best.pt --out runs/export/classifier-soupHJ.onnx

step "21. ship"
models_dir models detector-S classifier-soupHJ classifier-96Gft classifier-96blur
ls -l models/
echo "now: .venv/bin/cribcount eval ../shared/photos/poker-cards-4 --synth 200"
