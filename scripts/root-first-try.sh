#!/usr/bin/env bash
# Issue 43's check, as root with the interpreters under root's 0700 home (as pyenv, nvm and
# asdf leave them): twelve real MCP servers from npm and PyPI, each listed by `toolgate inspect`
# with default settings (the sandbox runs them as uid 65534). Prints one line per server and
# exits non-zero when any fails.
#
#   sudo scripts/root-first-try.sh [TOOLGATE] [PYTHON]
#
# TOOLGATE defaults to target/debug/toolgate; PYTHON to a pyenv interpreter under /root.
set -uo pipefail
cd "$(dirname "$0")/.."
TG="$(realpath "${1:-target/debug/toolgate}")"
PY="${2:-$(ls -d /root/.pyenv/versions/3.12*/bin/python3 2>/dev/null | head -1)}"
[ "$(id -u)" = 0 ] || { echo "run as root" >&2; exit 2; }
[ -x "$PY" ] || { echo "no Python under /root: pass one as the second argument" >&2; exit 2; }
HERE="$PWD"
W=/root/toolgate-first-try
mkdir -p "$W/node/bin" && chmod 700 /root
# Node under root's home, as nvm installs it.
cp "$(readlink -f "$(command -v node)")" "$W/node/bin/node"
export PATH="$W/node/bin:$W/venv/bin:/usr/local/bin:/usr/bin:/bin"
if [ ! -x "$W/npm/node_modules/.bin/mcp-server-memory" ]; then
  npm install --no-audit --no-fund --loglevel=error --prefix "$W/npm" \
    @modelcontextprotocol/server-memory@2026.8.31 @modelcontextprotocol/server-everything@2026.8.31 \
    @modelcontextprotocol/server-filesystem @modelcontextprotocol/server-sequential-thinking >/dev/null
fi
if [ ! -x "$W/venv/bin/mcp-server-git" ]; then
  "$PY" -m venv "$W/venv"
  "$W/venv/bin/pip" install --quiet --disable-pip-version-check mcp-server-time mcp-server-fetch \
    mcp-server-git duckduckgo-mcp-server uv
fi
if [ ! -x "$W/venv2/bin/mcp-server-calculator" ]; then
  "$PY" -m venv "$W/venv2"
  "$W/venv2/bin/pip" install --quiet --disable-pip-version-check mcp-server-calculator
fi
# The recipes, built as their READMEs say.
rm -rf "$W/node-recipe" "$W/py-recipe"
cp -r "$HERE/examples/node-server" "$W/node-recipe"
(cd "$W/node-recipe" && npm ci --no-audit --no-fund --loglevel=error >/dev/null && npm run --silent build >/dev/null)
cp -r "$HERE/examples/python-server" "$W/py-recipe"
(cd "$W/py-recipe" && UV_PYTHON="$PY" uv sync --frozen --quiet)
# A workspace that is a git repository (the git server opens it).
WS="$(mktemp -d)" && chmod 755 "$WS" && git -C "$WS" init -q && mkdir -p "$WS/files"
N="$W/npm/node_modules/.bin"
V="$W/venv/bin"
PORT=3917
PORT=$PORT "$N/mcp-server-everything" streamableHttp >/dev/null 2>&1 &
HTTP=$!
trap 'kill $HTTP 2>/dev/null; rm -rf "$WS"' EXIT
fails=0
check() {
  local name="$1" dir="$2"; shift 2
  local out
  out="$(cd "$dir" && "$TG" inspect "$@" 2>&1)"
  if [ $? -eq 0 ]; then
    printf 'ok    %-22s %s\n' "$name" "$(echo "$out" | grep -E '^[0-9]+ tools,' | tail -1)"
  else
    fails=$((fails + 1))
    printf 'FAIL  %-22s %s\n' "$name" "$(echo "$out" | grep -m1 'error')"
  fi
}
check memory "$WS" "$N/mcp-server-memory"
check everything-stdio "$WS" "$N/mcp-server-everything stdio"
check filesystem "$WS" "$N/mcp-server-filesystem $WS/files"
check sequential-thinking "$WS" "$N/mcp-server-sequential-thinking"
check node-recipe "$W/node-recipe"
check time "$WS" "$V/mcp-server-time"
check fetch "$WS" "$V/mcp-server-fetch"
check git "$WS" "$V/mcp-server-git --repository ."
check duckduckgo "$WS" "$V/duckduckgo-mcp-server"
check calculator "$WS" "$W/venv2/bin/mcp-server-calculator"
check python-recipe "$W/py-recipe"
check everything-http "$WS" --connect-timeout 30 "http://127.0.0.1:$PORT/mcp"
echo "$((12 - fails)) of 12 listed"
[ "$fails" = 0 ]
