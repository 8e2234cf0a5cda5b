#!/usr/bin/env bash
# Set up and run BPE Explorer locally. Extra args go to `streamlit run`, e.g.
#   bash scripts/run-app.sh --server.port 8600
# Pasted corpora are kept in an SQLite file under BPE_DATA_DIR (~/.local/share/bpe-explorer by default;
# BPE_CORPUS_BUDGET bytes, 512 MiB); set BPE_REDIS_URL (redis://host:6379/0) to keep them in Redis instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib.sh
ensure_venv requirements.txt

# The serving process's threads share two malloc arenas (glibc's default, eight per core, kept the memory of big
# pasted messages spread over many arenas after the sessions ended); the app also asks for it at start-up.
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
exec .venv/bin/streamlit run app.py "$@"
