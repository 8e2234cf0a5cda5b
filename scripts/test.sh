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
ensure_venv requirements-dev.txt

exec .venv/bin/python -m pytest -q "$@"
