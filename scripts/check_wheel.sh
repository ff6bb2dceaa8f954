#!/usr/bin/env bash
# A wheel install finds its shipped models: build the wheel, install it into a fresh venv, and count
# a sample photo from another directory (no checkout on the path). CI runs it after the tests.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
python3 -m pip wheel -q --no-deps -w "$tmp/dist" "$root" 2>/dev/null
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/pip" install -q --disable-pip-version-check "$tmp"/dist/cribcount-*.whl
cp "$root/sample_images/starter-below-the-row.jpg" "$tmp/photo.jpg"
cd "$tmp"
out="$("$tmp/venv/bin/cribcount" count photo.jpg --json)"
echo "$out" | "$tmp/venv/bin/python" -c '
import json, sys
body = json.load(sys.stdin)
cards = sorted(c["card"] for c in body["cards"])
assert cards == ["5S", "8D", "9C", "9H", "9S"], cards
print("wheel install: counted", " ".join(cards), "total", body["show"]["total"])'
