#!/usr/bin/env bash
# Build the first classifier's crop pack from nothing, for a session whose machine holds no data/:
# scripts/retrain.sh step 20's pack (step 19's crop sources, the chunky clubs cleaned and weighted),
# with the real and mined crops harvested by the shipped models instead of the retraining's own
# (which only its hours of earlier steps make). Resumable: re-run it and finished parts are skipped.
# Then the first classifier trains from scratch on it, here or on a lent GPU (scripts/gpu_train.sh's
# header; docs/experiments, "The first classifier from scratch on the cleaned pack").
#
#   bash scripts/first_pack.sh [ZIP_PARTS]   # .devdata/clsJpack, and in ZIP_PARTS zip parts (default 4)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
export PYTHONUNBUFFERED=1
scenes() { echo "$1"; }
source scripts/sources.sh
parts=${1:-4}
start=$(date +%s)
render det hires det2 hires3 hires2 rp rpv old nbT nbV rp3 rp3v
echo "renders: $(( ($(date +%s) - start) / 60 )) min"
harvest models data/nbMs data/realcls5 data/realmid5
crop_sources data/nbMs data/realcls5 data/realmid5
mkdir -p .devdata
first_pack .devdata/clsHpack .devdata/clsJpack --zip-parts "$parts"
echo "first_pack: .devdata/clsJpack in $(( ($(date +%s) - start) / 60 )) min"
