#!/usr/bin/env bash
# Set up everything the test suite needs on a fresh Debian machine, then run it.
#   bash scripts/test.sh                 # whole suite
#   bash scripts/test.sh tests/x.py -q   # extra args go straight to pytest
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Run a command as root (directly, or via sudo when available).
as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        echo "test.sh: need root (or sudo) to run: $*" >&2
        return 1
    fi
}

apt_install() {
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"
}

# Browser tests drive Debian's chromium (`playwright install` cannot download here).
if [ ! -x /usr/bin/chromium ]; then
    echo "test.sh: /usr/bin/chromium missing, installing Debian's chromium" >&2
    apt_install chromium
fi

if [ ! -x .venv/bin/python ]; then
    PY="$(command -v python3.11 || command -v python3)"
    # Debian's python3 ships without ensurepip unless python3-venv is installed.
    if ! "$PY" -c 'import ensurepip' >/dev/null 2>&1; then
        apt_install python3-venv
    fi
    "$PY" -m venv .venv
fi

.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt

exec .venv/bin/python -m pytest -q "$@"
