#!/usr/bin/env bash
# Set up and run BPE Explorer locally. Extra args go to `streamlit run`, e.g.
#   bash scripts/run-app.sh --server.port 8600
# Pasted corpora are kept in an SQLite file under BPE_DATA_DIR (~/.local/share/bpe-explorer by default;
# BPE_CORPUS_BUDGET bytes, 512 MiB); set BPE_REDIS_URL (redis://host:6379/0) to keep them in Redis instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib.sh
ensure_venv requirements.txt

exec .venv/bin/streamlit run serve.py "$@"
