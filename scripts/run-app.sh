#!/usr/bin/env bash
# Set up and run BPE Explorer locally. Extra args go to `streamlit run`, e.g.
#   bash scripts/run-app.sh --server.port 8600
# Pasted corpora are kept in an SQLite file under BPE_DATA_DIR (~/.local/share/bpe-explorer by default;
# BPE_CORPUS_BUDGET bytes, 512 MiB); set BPE_REDIS_URL (redis://host:6379/0) to keep them in Redis instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib.sh
ensure_venv requirements.txt

# The serving process's threads share two malloc arenas: with glibc's default (eight per core) the pages of big
# pasted messages, parsed on many threads, stay spread over their arenas after the sessions end. It must be set
# before the interpreter starts: by the app's first script run Streamlit's threads have their arenas.
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
exec .venv/bin/streamlit run serve.py "$@"
