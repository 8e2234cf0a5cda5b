#!/usr/bin/env bash
# Set up everything the test suite needs on a fresh Debian machine, then run it.
#   bash scripts/test.sh                 # whole suite
#   bash scripts/test.sh tests/x.py -q   # extra args go straight to pytest
#   UPDATE_SCREENSHOTS=1 bash scripts/test.sh tests/browser/test_browser_*.py   # also rewrite the README's docs/*.png
#   bash scripts/test.sh -n 0            # one process, as plain pytest runs (a later -n wins)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib.sh

# Browser tests drive Debian's chromium-headless-shell (its chromium, built as the headless shell Playwright
# runs; `playwright install` cannot download here); the replica test puts Debian's haproxy in front of two
# Streamlit replicas (scripts/serve-replicas.sh); the corpus store's tests start Debian's redis-server (and the
# replicas share their corpora through one); the Check's emulation of a Java HashMap's order is tested against a real
# one (tests/java/*.java, compiled with Debian's JDK).
missing=()
[ -x /usr/lib/chromium/chromium-headless-shell ] || missing+=(chromium-headless-shell)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || missing+=(redis-server)
command -v javac >/dev/null 2>&1 || missing+=(default-jdk-headless)
if [ ${#missing[@]} -gt 0 ]; then
    echo "test.sh: installing Debian's ${missing[*]}" >&2
    apt_install "${missing[@]}"
fi
# Fonts for Chinese, Japanese and emoji: the non-ASCII browser test takes a screenshot (the README's
# docs/multilingual.png when run with UPDATE_SCREENSHOTS=1; a temporary file otherwise).
if [ ! -d /usr/share/fonts/opentype/noto ] || [ ! -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]; then
    echo "test.sh: installing Noto CJK and colour emoji fonts for the screenshots" >&2
    apt_install fonts-noto-cjk fonts-noto-color-emoji
fi
ensure_venv requirements-dev.txt
# axe-core, the accessibility rules tests/browser/test_browser_accessibility.py runs in the page: one file from the npm
# registry's package, kept in the user's cache between runs.
AXE_VERSION=4.14.1
export BPE_AXE_JS="${BPE_AXE_JS:-${HOME:-/root}/.cache/bpe-explorer/axe-core-$AXE_VERSION/axe.min.js}"
if [ ! -f "$BPE_AXE_JS" ]; then
    command -v npm >/dev/null 2>&1 || apt_install npm
    axe_tmp="$(mktemp -d)"
    (cd "$axe_tmp" && npm pack --silent "axe-core@$AXE_VERSION" >/dev/null && tar xzf "axe-core-$AXE_VERSION.tgz")
    mkdir -p "$(dirname "$BPE_AXE_JS")"
    mv "$axe_tmp/package/axe.min.js" "$BPE_AXE_JS"
    rm -rf "$axe_tmp"
fi

# Bytecode: a fresh clone's venv has none compiled (uv installs sources only), and where the machine's environment
# sets PYTHONDONTWRITEBYTECODE every process the suite starts (each server, pytest worker, forkserver and script)
# compiled Streamlit, pandas, Altair and the engine from source again, about 4 CPU-seconds each (in CI, the
# benchmark-script, CLI, jobs and abandoned-runs tests took 99 s instead of 31 s). Each module is compiled once, into
# the venv (ignored by git), not beside its source.
export PYTHONPYCACHEPREFIX="$PWD/.venv/pycache"
unset PYTHONDONTWRITEBYTECODE

# Lint and format first: a style slip fails in seconds, before the browser tests start.
.venv/bin/ruff check --quiet .
.venv/bin/ruff format --check --quiet .

# Two pytest workers (pytest-xdist), one test module at a time each: the browser and server tests spend much of
# their time waiting on a page or a server, and the other worker uses that core meanwhile. A module stays on one
# worker, so its module-scoped servers start once and its tests keep their order; the modules go out in the order
# pytest collects them (--no-loadscope-reorder), so each worker runs its modules in the order of a plain run.
# The twenty slowest tests are listed at the end, so a run that nears the 15-minute budget shows where to look.
exec .venv/bin/python -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder --durations=20 "$@"
