#!/usr/bin/env bash
# The one test command. On a fresh Debian machine it installs what the tests need,
# then runs the whole suite; arguments go to pytest (tools/test.sh -m "not browser").
#   Debian packages: chromium (the browser tests drive it through Playwright, never a
#   downloaded browser), nodejs (the example engine in JavaScript), npm (axe-core for the
#   browser tests' accessibility check, pinned in tests/site/package-lock.json), git (the diff tests),
#   python3-venv where the system Python is externally managed (PEP 668: then the
#   package goes into ./.venv);
#   the package itself with its test extras (pip install -e '.[test]').
# PYTHON names the interpreter to use (default: python3, or ./.venv's as above).
set -euo pipefail
cd "$(dirname "$0")/.."

python="${PYTHON:-python3}"
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
command -v git >/dev/null 2>&1 || need+=(git)
venv=""
if [ -z "${PYTHON:-}" ] && [ -z "${VIRTUAL_ENV:-}" ] && python3 -c 'import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))'; then
    venv=".venv"
    [ -x "$venv/bin/python" ] || need+=(python3-venv)
fi
if [ ${#need[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
if [ -n "$venv" ]; then
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    python="$venv/bin/python"
fi
npm ci --prefix tests/site --no-audit --no-fund --silent
"$python" -m pip install -q -e '.[test]'
exec "$python" -m pytest -q -p no:cacheprovider "$@"
