#!/usr/bin/env bash
# Prove that scripts/retrain.sh still runs end to end, every step in order, at a few scenes and one
# epoch a run (RETRAIN_TINY=1): about half an hour on two cores instead of most of a day. It runs in
# a scratch clone of the committed tree (so data/, runs/ and models/ here are left alone), with this
# checkout's .venv and ../shared linked in. The models it ends with are not models: only the chain
# of commands is checked. Re-run with the same folder to resume where it stopped.
#
#   bash scripts/retrain_smoke.sh [SCRATCH_DIR]      # default: a new folder under /tmp
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${1:-$(mktemp -d /tmp/retrain-smoke.XXXXXX)}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
[ -d "$ROOT/../shared/photos" ] || { echo "no ../shared/photos beside $ROOT" >&2; exit 2; }
[ -x "$ROOT/.venv/bin/python" ] || { echo "no .venv: bash scripts/setup.sh --train first" >&2; exit 2; }
[ -d "$WORK/cribcount/.git" ] || git clone -q "$ROOT" "$WORK/cribcount"
[ -e "$WORK/cribcount/.venv" ] || ln -s "$ROOT/.venv" "$WORK/cribcount/.venv"
[ -e "$WORK/shared" ] || ln -s "$(cd "$ROOT/../shared" && pwd)" "$WORK/shared"
echo "scratch clone: $WORK/cribcount (commit $(git -C "$WORK/cribcount" rev-parse --short HEAD))"
cd "$WORK/cribcount"
start=$(date +%s)
RETRAIN_TINY=1 bash scripts/retrain.sh
echo "retrain.sh ran end to end at tiny scale in $(( ($(date +%s) - start) / 60 )) min"
