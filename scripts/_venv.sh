# Sourced by scripts/play and scripts/test: make .venv exist and match pyproject.toml.
#
# Usage: ensure_venv EXTRA   (EXTRA is "" or extras such as "[dev,research]")
#        ensure_fast         (the optional compiled writers, fast/: needs a C compiler)
# The stamp files inside .venv hold the hash of what was installed (pyproject.toml and the
# extra; fast/'s sources), so a changed pyproject.toml (new dependency, new entry point) or a
# changed writer triggers a fresh install.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

find_python() {
    local candidate
    for candidate in "${PYTHON:-}" python3.13 python3.12 python3.11 python3; do
        [ -n "$candidate" ] || continue
        command -v "$candidate" >/dev/null 2>&1 || continue
        # Probe quietly: a pyenv shim for a version that is not installed is on PATH but
        # answers "pyenv: python3.13: command not found".
        if "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' >/dev/null 2>&1; then
            echo "$candidate"
            return 0
        fi
    done
    echo "meeple needs Python 3.11 or newer on PATH (or set PYTHON=/path/to/python3.11)" >&2
    return 1
}

hash_file() {
    "$VENV/bin/python" -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$1"
}

ensure_venv() {
    local extra="$1" python stamp wanted
    if [ ! -x "$VENV/bin/python" ]; then
        python="$(find_python)"
        echo "creating $VENV with $python" >&2
        "$python" -m venv "$VENV"
    fi
    stamp="$VENV/.meeple-install-stamp"
    wanted="$(hash_file "$ROOT/pyproject.toml") $extra"
    # An install with extras also serves a plain one.
    if [ -f "$stamp" ]; then
        local have
        have="$(cat "$stamp")"
        if [ "$have" = "$wanted" ] || { [ -z "$extra" ] && [[ "$have" == "${wanted}["* ]]; }; then
            return 0
        fi
    fi
    echo "installing meeple$extra into $VENV (a minute or so the first time; pip shows each package)" >&2
    "$VENV/bin/python" -m pip install --quiet --upgrade pip >&2
    # Not --quiet: pip names each package as it collects and installs it, with its progress
    # bars, so the longest step of a first run is not a silent one.
    "$VENV/bin/python" -m pip install --progress-bar on -e "$ROOT$extra" >&2
    echo "$wanted" >"$stamp"
}

ensure_fast() {
    local stamp wanted
    stamp="$VENV/.meeple-fast-stamp"
    wanted="$(cd "$ROOT/fast" && cat pyproject.toml setup.py src/meeple_fast/*.pyx | "$VENV/bin/python" -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
        return 0
    fi
    echo "building the compiled writer (fast/) into $VENV" >&2
    "$VENV/bin/python" -m pip install --quiet "$ROOT/fast" >&2 || return 1
    echo "$wanted" >"$stamp"
}
