#!/usr/bin/env bash
# Run the BPE Explorer locally. Extra args go to `streamlit run`, e.g.
#   bash scripts/run-app.sh --server.port 8600
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [ ! -x .venv/bin/python ]; then
    PY="$(command -v python3.11 || command -v python3)"
    "$PY" -m venv .venv
fi

.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt

exec .venv/bin/streamlit run app.py "$@"
