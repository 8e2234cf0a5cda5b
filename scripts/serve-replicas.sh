#!/usr/bin/env bash
# Serve BPE Explorer from two Streamlit replicas behind HAProxy (Debian's haproxy package, installed
# with apt-get if missing): cookie stickiness (a browser stays on its replica, websocket and uploads
# included), websocket routing, health checks, and redispatch to the other replica when one dies.
#
#   bash scripts/serve-replicas.sh                 # http://localhost:8500 -> replicas on 8501 and 8502
#   PORT=9000 REPLICA_PORTS="9001 9002" bash scripts/serve-replicas.sh
#
# The replicas share pasted corpora (server/corpus_store.py) through one Redis: Debian's redis-server
# (installed if missing), started here on REDIS_PORT, its snapshot in RUN_DIR, at most REDIS_MAXMEMORY
# (least recently used corpora evicted first, those a presenter pinned last: volatile-lru), and started
# again if it dies (what its last snapshot missed is stored again by the pages that still have it). A
# deployment whose replicas run on several machines sets BPE_REDIS_URL to its own Redis instead, and
# none is started. HAProxy forwards each browser's address (X-Forwarded-For): the corpus store's
# per-client quota counts browsers, not the proxy.
#
# Environment: PORT (HAProxy, 8500), BIND (HAProxy's address, 0.0.0.0), REPLICA_PORTS ("8501 8502"),
# RUN_DIR (where the HAProxy config, pid files, logs and Redis's snapshot go; a temporary directory by
# default), REDIS_PORT (a free port by default), REDIS_MAXMEMORY (256mb), BPE_REDIS_URL, VENV_READY=1 (the
# venv is known to hold requirements.txt, as the test suite's does: pip is not asked again).
# Runs in the foreground; Ctrl-C (or SIGTERM) stops HAProxy, both replicas and Redis.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/lib.sh
[ "${VENV_READY:-}" = 1 ] || ensure_venv requirements.txt

HAPROXY="$(command -v haproxy || true)"
[ -z "$HAPROXY" ] && [ -x /usr/sbin/haproxy ] && HAPROXY=/usr/sbin/haproxy
if [ -z "$HAPROXY" ]; then
    echo "serve-replicas.sh: installing Debian's haproxy" >&2
    apt_install haproxy
    HAPROXY=/usr/sbin/haproxy
fi

if [ -z "${BPE_REDIS_URL:-}" ] && ! command -v redis-server >/dev/null 2>&1 && [ ! -x /usr/bin/redis-server ]; then
    echo "serve-replicas.sh: installing Debian's redis-server" >&2
    apt_install redis-server
fi

PORT="${PORT:-8500}"
BIND="${BIND:-0.0.0.0}"
REPLICA_PORTS="${REPLICA_PORTS:-8501 8502}"
RUN_DIR="${RUN_DIR:-$(mktemp -d -t bpe-replicas-XXXXXX)}"
mkdir -p "$RUN_DIR"
# Every replica must sign cookies with the same secret (server.cookieSecret, which Streamlit takes only
# from the config file or the environment): Streamlit's XSRF token (a cookie checked on uploads) made by
# one replica must be accepted by the other after a failover.
SECRET="$(.venv/bin/python -c 'import secrets; print(secrets.token_hex(32))')"

pids=()
redis_pid=""
cleanup() {
    trap - EXIT INT TERM
    for pid in "${pids[@]}" $redis_pid; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

if [ -z "${BPE_REDIS_URL:-}" ]; then
    REDIS_PORT="${REDIS_PORT:-$(.venv/bin/python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
    REDIS="$(command -v redis-server || echo /usr/bin/redis-server)"
    keep_redis() {  # Redis in the foreground of this subshell, started again whenever it exits
        local child=""
        trap '[ -n "$child" ] && kill "$child" 2>/dev/null; exit 0' TERM INT
        while :; do
            "$REDIS" --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$RUN_DIR" --save "60 1" --appendonly no \
                --maxmemory "${REDIS_MAXMEMORY:-256mb}" --maxmemory-policy volatile-lru \
                >>"$RUN_DIR/redis.log" 2>&1 &
            child=$!
            echo "$child" >"$RUN_DIR/redis.pid"
            wait "$child" || true
            echo "serve-replicas.sh: Redis exited; starting it again" >>"$RUN_DIR/redis.log"
            sleep 1
        done
    }
    keep_redis &
    redis_pid=$!
    echo "$REDIS_PORT" >"$RUN_DIR/redis.port"
    export BPE_REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"
fi

export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"  # as scripts/run-app.sh (which says why)
servers=""
n=0
for port in $REPLICA_PORTS; do
    n=$((n + 1))
    STREAMLIT_SERVER_COOKIE_SECRET="$SECRET" .venv/bin/python -m streamlit run serve.py \
        --server.port "$port" --server.address 127.0.0.1 --server.headless true \
        --server.enableCORS true --server.enableXsrfProtection true \
        --browser.gatherUsageStats false \
        >"$RUN_DIR/replica$n.log" 2>&1 &
    pids+=($!)
    echo "$!" >"$RUN_DIR/replica$n.pid"
    echo "$port" >"$RUN_DIR/replica$n.port"
    servers+="    server replica$n 127.0.0.1:$port cookie replica$n check inter 1s fall 2 rise 2"$'\n'
done

cat >"$RUN_DIR/haproxy.cfg" <<EOF
global
    maxconn 4096

defaults
    mode http
    option redispatch          # a dead replica's browsers go to the other one
    retries 2
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h          # websockets (/_stcore/stream) stay open for the whole lesson
    timeout http-keep-alive 10s
    option forwardfor          # X-Forwarded-For: the browser's address, for the per-client quotas

frontend bpe
    bind $BIND:$PORT
    default_backend streamlit

backend streamlit
    balance roundrobin
    # Stickiness: HAProxy's own cookie, set on the first response; the websocket upgrade and the
    # upload requests carry it, so a session's messages and files stay on one replica.
    cookie BPE_REPLICA insert indirect nocache httponly attr "SameSite=Lax"
    option httpchk GET /_stcore/health
    http-check expect string ok
$servers
EOF

# Wait for the replicas before taking traffic.
i=0
for port in $REPLICA_PORTS; do
    i=$((i + 1))
    for _ in $(seq 1 120); do
        if ! kill -0 "${pids[$((i - 1))]}" 2>/dev/null; then
            echo "serve-replicas.sh: replica $i (port $port) exited:" >&2
            tail -20 "$RUN_DIR/replica$i.log" >&2
            exit 1
        fi
        if .venv/bin/python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:$port/_stcore/health', timeout=1).read().strip() == b'ok' else 1)" 2>/dev/null; then
            break
        fi
        sleep 0.5
    done
done

"$HAPROXY" -c -f "$RUN_DIR/haproxy.cfg" >/dev/null
echo "serve-replicas.sh: http://$BIND:$PORT -> replicas on $REPLICA_PORTS (config and logs in $RUN_DIR)" >&2
"$HAPROXY" -db -f "$RUN_DIR/haproxy.cfg" >"$RUN_DIR/haproxy.log" 2>&1 &
pids+=($!)
echo "$!" >"$RUN_DIR/haproxy.pid"
wait "${pids[-1]}"
