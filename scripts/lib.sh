# Shared set-up for scripts/test.sh and scripts/run-app.sh (sourced, not run).

# Run a command as root (directly, or via sudo when available).
as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        echo "need root (or sudo) to run: $*" >&2
        return 1
    fi
}

apt_install() {
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"
}

UV_VERSION=0.13.9

# Create .venv (Python 3.11 on Debian 12) and install the given requirements file into it.
ensure_venv() {
    if [ ! -x .venv/bin/python ]; then
        PY="$(command -v python3.11 || command -v python3)"
        # Debian's python3 ships without ensurepip unless python3-venv is installed.
        if ! "$PY" -c 'import ensurepip' >/dev/null 2>&1; then
            apt_install python3-venv
        fi
        "$PY" -m venv .venv
    fi
    # uv installs the pinned requirements in about 15 s where pip takes about 75 s (a fresh clone's CI run installs
    # them all); it resolves the same versions from the same index.
    .venv/bin/python -m pip install -q --disable-pip-version-check "uv==$UV_VERSION"
    .venv/bin/python -m uv pip install -q --python .venv/bin/python -r "$1"
}
