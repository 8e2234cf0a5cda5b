#!/usr/bin/env bash
# Set up everything the test suite needs on a fresh Debian machine, then run it.
#   bash scripts/test.sh                 # whole suite
#   bash scripts/test.sh tests/x.py -q   # extra args go straight to pytest
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib.sh

# Browser tests drive Debian's chromium (`playwright install` cannot download here).
if [ ! -x /usr/bin/chromium ]; then
    echo "test.sh: /usr/bin/chromium missing, installing Debian's chromium" >&2
    apt_install chromium
fi
# Fonts for Chinese, Japanese and emoji: the non-ASCII browser test saves docs/multilingual.png for the README.
if [ ! -d /usr/share/fonts/opentype/noto ] || [ ! -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]; then
    echo "test.sh: installing Noto CJK and colour emoji fonts for the screenshots" >&2
    apt_install fonts-noto-cjk fonts-noto-color-emoji
fi
ensure_venv requirements-dev.txt

exec .venv/bin/python -m pytest -q "$@"
