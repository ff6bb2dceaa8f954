# The training sources of scripts/retrain.sh, by name, written once: sourced by it and by
# scripts/first_pack.sh (which builds the first classifier's pack from nothing, harvesting with the
# shipped models). Each render's seed, size and decks are here; the steps that read them are in
# retrain.sh, and docs/experiments says why each is there. The caller sets PY and scenes FULL TINY.

# Every scene's cribbage board prints its counts (5, 10, ... 121): the shipped models never saw
# one, and about one photo in a hundred with such a board in view gained a card from a "15" read
# as 5S (docs/experiments, Numbered boards). The renders are new scenes either way: the shipped
# models trained on renders mirrored by the engine's old camera.
BOARDS=--numbered-boards

# Steps 1-6 (and data/hires2 in step 8) rendered their scenes before the ten font-suit decks of
# step 8 were added: naming the 39 decks there were then keeps those steps to the decks they had
# (the scenes themselves are new: cards as printed, numbered boards).
NEW_DECKS=proc-opensans,proc-lato,proc-garamond,proc-caladea,proc-biolinum,proc-oldstandard,proc-opensans-cond,proc-nimbus-side,proc-lato-light,proc-urw-gothic
# The randomized decks (proc-rand-*) came later still, in step 11.
OLD_DECKS=$($PY -c "import sys; from training.synth.decks import all_decks; new = sys.argv[1].split(','); print(','.join(d.name for d in all_decks() if d.name not in new and not d.name.startswith('proc-rand-')))" "$NEW_DECKS")
deck_list() { $PY -c "from training.synth import procedural as p; print(','.join(d.name for d in p.$1))"; }
RAND_DECKS=$(deck_list RANDOM_PLAIN_DECKS)
CHUNKY_DECKS=$(deck_list RANDOM_CHUNKY_DECKS)
SIDE_DECKS=$(deck_list RANDOM_SIDE_DECKS)
# Step 12's scenes put the chunky-club designs in with the others.
ALL_RAND_DECKS="$RAND_DECKS,$CHUNKY_DECKS"
ALL_TRAIN_DECKS=$($PY -c "from training.synth.decks import deck_names; print(','.join(n for n in deck_names('train') if not n.startswith('proc-rand-')))")

# render NAME...: draw each data/NAME unless it is done. A render counts as done once its
# yolo/data.yaml is written (the last thing a render writes): an interrupted one runs again from the
# start and draws the same scenes (each is seeded by its number), so the order renders run in does
# not change them.
render() {
    local name args
    for name; do
        case $name in
            # step 1: the first detector's scenes, and phone-size ones for sharp crops
            det)     args=(--n "$(scenes 4000 24)" --seed 11 --size 640 --decks "$OLD_DECKS") ;;
            hires)   args=(--n "$(scenes 1200 24)" --seed 23 --size 1000:2600 --decks "$OLD_DECKS") ;;
            # step 8: the font-suit decks, and more phone-size scenes of the original ones
            det2)    args=(--n "$(scenes 1500 24)" --seed 37 --size 640 --decks "$NEW_DECKS") ;;
            hires3)  args=(--n "$(scenes 1000 24)" --seed 41 --size 1000:2600 --decks "$NEW_DECKS") ;;
            hires2)  args=(--n "$(scenes 367 12)" --seed 31 --size 1000:2600 --split train --decks "$OLD_DECKS") ;;
            # step 11: the randomized decks, every training deck again, the chunky-club designs
            rp)      args=(--n "$(scenes 2400 12)" --seed 301 --split train --size 800:2200 --decks "$RAND_DECKS") ;;
            rp2)     args=(--n "$(scenes 2400 12)" --seed 304 --split train --size 800:2200 --decks "$RAND_DECKS") ;;
            rpv)     args=(--n "$(scenes 200 6)" --seed 303 --split val --size 800:2200 --decks "$RAND_DECKS") ;;
            old)     args=(--n "$(scenes 1000 12)" --seed 302 --split train --size 800:2200 --decks "$ALL_TRAIN_DECKS") ;;
            rp3)     args=(--n "$(scenes 1600 12)" --seed 305 --split train --size 800:2200 --decks "$CHUNKY_DECKS") ;;
            rp3v)    args=(--n "$(scenes 100 6)" --seed 306 --split val --size 800:2200 --decks "$CHUNKY_DECKS") ;;
            # step 12: the same decks down to 600 px, where held-out renders put an index in 15 px
            rpA)     args=(--n "$(scenes 2400 12)" --seed 307 --split train --size 600:2000 --decks "$ALL_RAND_DECKS") ;;
            oldA)    args=(--n "$(scenes 800 12)" --seed 308 --split train --size 600:2000 --decks "$ALL_TRAIN_DECKS") ;;
            rpAv)    args=(--n "$(scenes 200 6)" --seed 309 --split val --size 600:2000 --decks "$ALL_RAND_DECKS") ;;
            # step 13: designs with the suit beside the rank
            rpS)     args=(--n "$(scenes 2400 12)" --seed 310 --split train --size 600:2000 --decks "$SIDE_DECKS") ;;
            rpSv)    args=(--n "$(scenes 150 6)" --seed 311 --split val --size 600:2000 --decks "$SIDE_DECKS") ;;
            # step 15: detector scenes of every training deck (data/det640 train-only: the detector
            # mix's val is det608v's and the real scenes')
            det608)  args=(--n "$(scenes 1200 12)" --seed 901 --split train --size 1216:2400 --no-crops) ;;
            det608v) args=(--n "$(scenes 100 6)" --seed 902 --split val --size 1216:2400 --no-crops) ;;
            det640)  args=(--n "$(scenes 600 12)" --seed 903 --split train --size 640 --no-crops) ;;
            # step 16: a board in nine scenes of ten
            nbT)     args=(--board-chance 0.9 --n "$(scenes 1400 12)" --seed 5001 --split train --size 600:2200) ;;
            nbV)     args=(--board-chance 0.9 --n "$(scenes 150 6)" --seed 5002 --split val --size 600:2200) ;;
            *) echo "render: no source named $name" >&2; return 2 ;;
        esac
        [ -f "data/$name/yolo/data.yaml" ] || .venv/bin/cribcount synth $BOARDS --out "data/$name" "${args[@]}"
    done
    return 0
}

# harvest MODELS MINED REAL MID: step 16's harvested crops, read with the models in MODELS: `none`
# crops where the detector fires off the indices of data/nbT and data/nbV (numerals, pips, court
# figures), index crops of the real training photos vouched for by their whole-card labels, and
# the real cards' middles (pips, figures) as `none`. Each is skipped once written.
harvest() {
    local models=$1 mined=$2 real=$3 mid=$4
    [ -d "$mined/train" ] || $PY -m training.mined_crops --scenes data/nbT data/nbV --out "$mined" \
        --models "$models" --per-scene 4 --seed 5011
    [ -d "$real/train" ] || $PY -m training.real_crops --photos ../shared/photos/poker-cards-4-train --out "$real" \
        --models "$models" --copies 2 --index-confidence 0.1
    [ -d "$mid/train" ] || $PY -m training.real_crops --photos ../shared/photos/poker-cards-4-train --out "$mid" \
        --models "$models" --copies 0 --middle-none 4 --seed 19
    return 0
}

# crop_sources MINED REAL MID: set CROP_SOURCES to every crop source of steps 1-16 (less rp2, which
# step 17's pack drops and step 19 never read), with these harvests.
crop_sources() {
    CROP_SOURCES=(det=data/det/cls det2=data/det2/cls hires=data/hires/cls hires2=data/hires2/cls
        hires3=data/hires3/cls rp=data/rp/cls rpv=data/rpv/cls old=data/old/cls nb=data/nbT/cls nbv=data/nbV/cls
        mined="$1" real="$2" mid="$3")
}

# first_pack HPACK JPACK [--zip-parts N]: step 19's pack (CROP_SOURCES with the chunky-club renders
# whole, half the 640 px and randomized-deck crops, 8,000 `none`, crops shrunk to 96 px) and step
# 20's made from it (the chunky designs' spade-like clubs left out, the rest of the family's black
# crops three times); --zip-parts also writes JPACK in parts, for a lent GPU (scripts/gpu_train.sh).
first_pack() {
    local hpack=$1 jpack=$2
    shift 2
    $PY -m training.cls_data --out data/clsH "${CROP_SOURCES[@]}" chunky=data/rp3/cls chunkyv=data/rp3v/cls
    [ -d "$hpack/train" ] || $PY -m training.crop_pack data/clsH --out "$hpack" --half det_ --half rp_ \
        --none 8000 --val-fraction 0.15 --seed 7 --max-side 96
    [ -d "$jpack/train" ] || $PY -m training.chunky_clubs "$hpack" --out "$jpack" --scenes data/rp3 data/rp3v "$@"
    return 0
}
