#!/usr/bin/env bash
# Installs what the tests and the comparison scripts need on a fresh Debian machine:
#   - Stockfish (Debian package `stockfish`, installed to /usr/games/stockfish)
#   - python-chess (PyPI package `chess`, for `import chess.engine`)
#
# Idempotent and non-interactive: each part is skipped when already present, `apt-get update`
# runs at most once, and a part that cannot be installed (no apt, no network, no pip) is
# reported as a warning without stopping the others. Exit status is 0 unless an unexpected
# internal error occurs; the summary at the end says what is available.
#
# Usage: bash scripts/setup.sh   (as root, or as a user with passwordless sudo for apt)

set -euo pipefail

export DEBIAN_FRONTEND=noninteractive
export PIP_DISABLE_PIP_VERSION_CHECK=1
export PIP_NO_INPUT=1
export PIP_ROOT_USER_ACTION=ignore

log() { printf 'setup: %s\n' "$*"; }
warn() { printf 'setup: WARNING: %s\n' "$*" >&2; }

# Privilege prefix for apt-get: empty as root, `sudo -n` if that works, else apt is skipped.
apt_prefix=()
apt_usable() {
    if ! command -v apt-get >/dev/null 2>&1; then
        warn "apt-get not found; cannot install Debian packages"
        return 1
    fi
    if [ "$(id -u)" -eq 0 ]; then
        apt_prefix=()
        return 0
    fi
    if command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
        apt_prefix=(sudo -n)
        return 0
    fi
    warn "not root and no passwordless sudo; cannot run apt-get"
    return 1
}

apt_updated=0
apt_update_once() {
    if [ "$apt_updated" -eq 1 ]; then
        return 0
    fi
    apt_updated=1
    log "running: apt-get update"
    if "${apt_prefix[@]}" apt-get -o DPkg::Lock::Timeout=120 update -qq </dev/null; then
        return 0
    fi
    warn "apt-get update failed; trying to install from the existing package lists"
    return 0
}

apt_install() {
    apt_update_once
    log "running: apt-get install -y $*"
    "${apt_prefix[@]}" apt-get -o DPkg::Lock::Timeout=120 install -y -qq --no-install-recommends "$@" </dev/null
}

find_stockfish() {
    if [ -x /usr/games/stockfish ]; then
        echo /usr/games/stockfish
    elif command -v stockfish >/dev/null 2>&1; then
        command -v stockfish
    else
        return 1
    fi
}

have_python_chess() {
    command -v python3 >/dev/null 2>&1 && python3 -c 'import chess.engine' >/dev/null 2>&1
}

stockfish_status="missing"
python_chess_status="missing"

setup_stockfish() {
    local path
    if path=$(find_stockfish); then
        log "stockfish already installed at $path (nothing to do)"
        stockfish_status="present ($path)"
        return 0
    fi
    if apt_usable && apt_install stockfish; then
        if path=$(find_stockfish); then
            log "installed stockfish at $path"
            stockfish_status="installed ($path)"
            return 0
        fi
        warn "apt-get installed stockfish but no binary is in /usr/games or on PATH"
        return 0
    fi
    warn "could not install stockfish"
}

setup_python_chess() {
    if have_python_chess; then
        log "python-chess already importable by $(command -v python3) (nothing to do)"
        python_chess_status="present"
        return 0
    fi
    if ! command -v python3 >/dev/null 2>&1; then
        if apt_usable && apt_install python3 python3-pip; then
            log "installed python3"
        else
            warn "python3 not found and could not be installed"
            return 0
        fi
    fi
    if ! python3 -m pip --version >/dev/null 2>&1; then
        if apt_usable && apt_install python3-pip; then
            log "installed python3-pip"
        else
            warn "pip is not available for $(command -v python3)"
        fi
    fi
    if python3 -m pip --version >/dev/null 2>&1; then
        log "running: python3 -m pip install --quiet chess"
        if python3 -m pip install --quiet chess </dev/null || {
            # Debian's system Python refuses pip installs unless told otherwise (PEP 668).
            log "retrying: python3 -m pip install --quiet --break-system-packages chess"
            python3 -m pip install --quiet --break-system-packages chess </dev/null
        }; then
            :
        else
            warn "pip install chess failed"
        fi
    fi
    if ! have_python_chess && apt_usable; then
        # Last resort: Debian's own packaging of python-chess for the system python3.
        apt_install python3-chess || warn "apt-get install python3-chess failed"
    fi
    if have_python_chess; then
        log "python-chess is importable by $(command -v python3)"
        python_chess_status="installed"
    else
        warn "python-chess is still not importable by python3"
    fi
}

main() {
    setup_stockfish || warn "stockfish setup failed unexpectedly"
    setup_python_chess || warn "python-chess setup failed unexpectedly"
    log "summary: stockfish: $stockfish_status; python-chess: $python_chess_status"
}

main "$@"
