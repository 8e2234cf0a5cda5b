#!/usr/bin/env bash
# Set up and run BPE Explorer locally. Extra args go to `streamlit run`, e.g.
#   bash scripts/run-app.sh --server.port 8600
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib.sh
ensure_venv requirements.txt

exec .venv/bin/streamlit run app.py "$@"
