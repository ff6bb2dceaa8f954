#!/usr/bin/env bash
# The developer set-up, one command: a project venv in .venv with the runtime and the dev extra,
# the npm card art, and Debian packages that need root to install: the card art and fonts the lab
# renders its synthetic scenes from, and Chromium for the page tests. (The runtime alone needs no
# root: `pip install -e .` counts photos and serves the page.)
# Usage: bash scripts/setup.sh [--train]   (--train adds torch + ultralytics for training)
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(gnome-cards-data kdegames-card-data-kf5 fonts-dejavu-core fonts-liberation
              fonts-freefont-ttf librsvg2-bin chromium chromium-driver
              # the reverse proxy docs/deploy.md recommends, started in front of the service by a test
              nginx-light
              # training/synth: table textures (GIMP patterns) and index fonts for procedural decks
              gimp-data fonts-urw-base35 fonts-texgyre fonts-oldstandard fonts-bebas-neue
              fonts-league-spartan fonts-crosextra-caladea fonts-linuxlibertine fonts-open-sans
              fonts-lato fonts-ebgaramond)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "setup: these Debian packages need root (card art and fonts for the lab's renders, Chromium for" \
         "the page tests): apt-get install ${missing[*]}; the runtime alone needs none: pip install -e ." >&2
    exit 1
  fi
fi

python3 -m venv .venv
.venv/bin/pip install -q --upgrade pip
extras="dev"
[[ "${1:-}" == "--train" ]] && extras="$extras,train"
.venv/bin/pip install -q -e ".[${extras}]"

if [ -f scripts/npm/package.json ]; then
  (cd scripts/npm && npm ci --silent --no-audit --no-fund)
fi
echo "setup: done (.venv ready; extras: ${extras})"
