#!/usr/bin/env bash
# Captures the "ecosystem" belt: the tools/list catalogs of popular public MCP servers, installed
# at pinned versions from npm and PyPI, started over stdio and asked only for their tools (no tool
# is ever called). Writes fixtures/ecosystem/<name>.json ({"tools": [...]}, all pages merged, as
# the server sent them) and fixtures/ecosystem/manifest.json (package, version, licence, launch,
# tool count, date).
#
#   scripts/capture-ecosystem.sh            # every server below
#   ONLY=github,time scripts/capture-ecosystem.sh   # just these; the other manifest entries stay
#   OUT=DIR KEEP_WORK=1 scripts/capture-ecosystem.sh
#   LIST=scripts/heldout-servers.txt OUT=fixtures/lint-heldout scripts/capture-ecosystem.sh
#
# LIST=FILE reads the server table from FILE instead of the built-in one below (same
# `name|registry|package|version|extra pin|launch|note` lines; blank lines and lines starting
# with # are skipped). The manifest is always $OUT/manifest.json; its "belt" is $BELT, by default
# "ecosystem" for the built-in table and the name of $OUT's folder for a LIST (which the manifest
# then names in "servers_from").
#
# Needs node/npm, python3 (with venv) and git; reaches only the npm registry and PyPI. npm
# packages install with --ignore-scripts, so no install step downloads a browser or a binary.
# A server whose installed licence is not an accepted OSI licence is refused. Servers run with
# an empty environment except PATH, HOME (a scratch directory), LANG, PYTHONHASHSEED=0 (a Python
# server may build a description from a set) and the variables in their launch line: dummy credentials where a server insists on one at start-up but only uses it when
# a tool is called. Exit status 1 when any server failed (the others are still written).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
HERE="$ROOT/scripts"
OUT=${OUT:-$ROOT/fixtures/ecosystem}
ONLY=${ONLY:-}
TIMEOUT=${TIMEOUT:-90}
WORK="$(mktemp -d "${TMPDIR:-/tmp}/eco-capture.XXXXXX")"
if [[ -z ${KEEP_WORK:-} ]]; then
  trap 'rm -rf "$WORK"' EXIT
else
  echo "work directory kept: $WORK" >&2
fi
DATE="$(date -u +%F)"
# the interpreter itself, not a version-manager shim that would need its own environment
PY="$(python3 -c 'import sys; print(sys.executable)')"

# name | registry | package | version | extra pin (a dependency the package leaves floating) | launch (@WORK@ = scratch dir) | note
SERVERS=$(cat <<'EOF'
filesystem|npm|@modelcontextprotocol/server-filesystem|2026.8.31||mcp-server-filesystem @WORK@/files|one allowed directory (empty)
memory|npm|@modelcontextprotocol/server-memory|2026.8.31||MEMORY_FILE_PATH=@WORK@/memory.jsonl mcp-server-memory|
everything|npm|@modelcontextprotocol/server-everything|2026.8.31||mcp-server-everything|the MCP reference test server (stdio by default)
sequential-thinking|npm|@modelcontextprotocol/server-sequential-thinking|2026.8.31||mcp-server-sequential-thinking|
github|npm|@modelcontextprotocol/server-github|2025.4.8||GITHUB_PERSONAL_ACCESS_TOKEN=dummy mcp-server-github|dummy token, used only when a tool is called
gitlab|npm|@modelcontextprotocol/server-gitlab|2025.4.25|zod@3.25.76|GITLAB_PERSONAL_ACCESS_TOKEN=dummy mcp-server-gitlab|dummy token, used only when a tool is called; zod pinned to 3.x: the package does not declare zod, npm picks 4.x and zod-to-json-schema then emits empty input schemas
slack|npm|@modelcontextprotocol/server-slack|2025.4.25||SLACK_BOT_TOKEN=xoxb-dummy SLACK_TEAM_ID=T00000000 mcp-server-slack|dummy token and team, used only when a tool is called
google-maps|npm|@modelcontextprotocol/server-google-maps|0.6.2||GOOGLE_MAPS_API_KEY=dummy mcp-server-google-maps|dummy key, used only when a tool is called
brave-search|npm|@modelcontextprotocol/server-brave-search|0.6.2||BRAVE_API_KEY=dummy mcp-server-brave-search|dummy key, used only when a tool is called
postgres|npm|@modelcontextprotocol/server-postgres|0.6.2||mcp-server-postgres postgresql://127.0.0.1:1/dummy|the database is contacted only when a tool is called
gdrive|npm|@modelcontextprotocol/server-gdrive|2025.1.14||GDRIVE_CREDENTIALS_PATH=@WORK@/gdrive-credentials.json mcp-server-gdrive|dummy OAuth token file, used only when a tool is called
everart|npm|@modelcontextprotocol/server-everart|0.6.2||EVERART_API_KEY=dummy mcp-server-everart|dummy key, used only when a tool is called
puppeteer|npm|@modelcontextprotocol/server-puppeteer|2025.5.12||mcp-server-puppeteer|no browser installed (install scripts skipped); the browser starts only when a tool is called
playwright|npm|@playwright/mcp|0.0.83||playwright-mcp|no browser installed (install scripts skipped); the browser starts only when a tool is called
notion|npm|@notionhq/notion-mcp-server|2.5.2||NOTION_TOKEN=dummy notion-mcp-server|dummy token, used only when a tool is called
firecrawl|npm|firecrawl-mcp|3.26.0||FIRECRAWL_API_KEY=dummy firecrawl-mcp|dummy key, used only when a tool is called
exa|npm|exa-mcp-server|3.4.1||EXA_API_KEY=dummy exa-mcp-server|dummy key, used only when a tool is called
context7|npm|@upstash/context7-mcp|4.1.1||context7-mcp|
tavily|npm|tavily-mcp|0.2.22||TAVILY_API_KEY=dummy tavily-mcp|dummy key, used only when a tool is called
supabase|npm|@supabase/mcp-server-supabase|0.13.0||SUPABASE_ACCESS_TOKEN=dummy mcp-server-supabase --features account,database,debugging,development,functions,branching,storage|dummy token; every default feature group except docs, whose search_docs schema is fetched from Supabase when the tools are listed
kubernetes|npm|mcp-server-kubernetes|4.1.7||mcp-server-kubernetes|no cluster: kubeconfig is read only when a tool is called
mongodb|npm|mongodb-mcp-server|3.0.4||MDB_MCP_TELEMETRY=disabled mongodb-mcp-server|no connection string (same tool list as with one); telemetry off
chart|npm|@antv/mcp-server-chart|0.9.10||mcp-server-chart|charts are rendered by a remote service only when a tool is called
figma|npm|figma-developer-mcp|0.13.2||figma-developer-mcp --stdio --figma-api-key=dummy|dummy key; one description names the server's working directory, redacted to <cwd>
circleci|npm|@circleci/mcp-server-circleci|0.20.0||CIRCLECI_TOKEN=dummy mcp-server-circleci|dummy token, used only when a tool is called
time|pypi|mcp-server-time|2026.10.19||mcp-server-time --local-timezone UTC|local time zone fixed to UTC (it appears in the descriptions)
fetch|pypi|mcp-server-fetch|2026.10.24||mcp-server-fetch|
git|pypi|mcp-server-git|2026.10.19||mcp-server-git --repository @WORK@/repo|an empty repository
sqlite|pypi|mcp-server-sqlite|2025.4.25|mcp==1.30.0|mcp-server-sqlite --db-path @WORK@/sqlite.db|needs the mcp SDK 1.x (it uses Server.list_resources, gone in 2.x)
aws-documentation|pypi|awslabs.aws-documentation-mcp-server|1.2.3||FASTMCP_LOG_LEVEL=ERROR awslabs.aws-documentation-mcp-server|
atlassian|pypi|mcp-atlassian|0.23.1||JIRA_URL=https://example.atlassian.net JIRA_USERNAME=dummy JIRA_API_TOKEN=dummy CONFLUENCE_URL=https://example.atlassian.net/wiki CONFLUENCE_USERNAME=dummy CONFLUENCE_API_TOKEN=dummy mcp-atlassian|dummy Jira and Confluence credentials, used only when a tool is called; both products enabled
arxiv|pypi|arxiv-mcp-server|0.8.2||arxiv-mcp-server --storage-path @WORK@/arxiv|
duckduckgo|pypi|duckduckgo-mcp-server|0.7.0||duckduckgo-mcp-server|
obsidian|pypi|mcp-obsidian|0.2.3||OBSIDIAN_API_KEY=dummy mcp-obsidian|dummy key, used only when a tool is called
blender|pypi|blender-mcp|2.0.0||blender-mcp|Blender is contacted only when a tool is called
EOF
)

LIST=${LIST:-}
if [[ -n $LIST ]]; then
  [[ -f $LIST ]] || { echo "LIST=$LIST: no such file" >&2; exit 2; }
  SERVERS=$(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$LIST")
  BELT=${BELT:-$(basename "$OUT")}
  SERVERS_FROM="$(python3 -c 'import os, sys; print(os.path.relpath(os.path.realpath(sys.argv[1]), sys.argv[2]))' "$LIST" "$ROOT")"
else
  BELT=${BELT:-ecosystem}
  SERVERS_FROM=
fi

selected() { [[ -z $ONLY ]] || [[ ",$ONLY," == *",$1,"* ]]; }

mkdir -p "$OUT" "$WORK/entries" "$WORK/logs" "$WORK/home" "$WORK/files" "$WORK/cwd"
git init -q "$WORK/repo"
printf '{"access_token":"dummy","token_type":"Bearer"}\n' > "$WORK/gdrive-credentials.json"

order=()
failed=()
while IFS='|' read -r name registry package version extra launch note; do
  order+=("$name")
  selected "$name" || continue
  echo "== $name ($registry $package $version)" >&2
  log="$WORK/logs/$name"
  # install, and find the directory the licence is read from
  if [[ $registry == npm ]]; then
    prefix="$WORK/npm/$name"
    pins=("$package@$version")
    [[ -n $extra ]] && pins+=("$extra")
    install="npm install --ignore-scripts ${pins[*]}"
    if ! npm install --prefix "$prefix" --no-audit --no-fund --ignore-scripts --loglevel=error \
        "${pins[@]}" >"$log.install" 2>&1; then
      echo "   install failed (see below)" >&2; tail -5 "$log.install" >&2; failed+=("$name: install"); continue
    fi
    bindir="$prefix/node_modules/.bin"
    if ! lic="$(python3 "$HERE/ecosystem-meta.py" licence npm "$prefix/node_modules/$package")"; then
      failed+=("$name: licence"); continue
    fi
  else
    venv="$WORK/venv/$name"
    pins=("$package==$version")
    [[ -n $extra ]] && pins+=("$extra")
    install="pip install ${pins[*]}"
    if ! { "$PY" -m venv "$venv" && "$venv/bin/pip" install -q --disable-pip-version-check \
        "${pins[@]}"; } >"$log.install" 2>&1; then
      echo "   install failed (see below)" >&2; tail -5 "$log.install" >&2; failed+=("$name: install"); continue
    fi
    bindir="$venv/bin"
    if ! lic="$(python3 "$HERE/ecosystem-meta.py" licence pypi "$venv/bin/python" "$package")"; then
      failed+=("$name: licence"); continue
    fi
  fi
  licence="${lic%%$'\t'*}"
  licence_source="${lic#*$'\t'}"
  # the launch line: NAME=VALUE words become the server's environment, then the command
  read -ra words <<< "${launch//@WORK@/$WORK}"
  envs=()
  while [[ ${words[0]} == *=* ]]; do envs+=("${words[0]}"); words=("${words[@]:1}"); done
  cmd=("$bindir/${words[0]}" "${words[@]:1}")
  if ! env -i PATH="$PATH" HOME="$WORK/home" LANG=C.UTF-8 PYTHONHASHSEED=0 "${envs[@]}" \
      "$PY" "$HERE/mcp-list-tools.py" --timeout "$TIMEOUT" --stderr "$log.stderr" \
        --cwd "$WORK/cwd" --redact "$WORK/cwd=<cwd>" --redact "$WORK=<work>" -- "${cmd[@]}" \
      >"$WORK/$name.json" 2>"$log.status"; then
    echo "   listing failed: $(tail -1 "$log.status")" >&2; tail -5 "$log.stderr" >&2
    failed+=("$name: tools/list"); continue
  fi
  if ! tools="$(python3 "$HERE/ecosystem-meta.py" count "$WORK/$name.json")"; then
    failed+=("$name: snapshot shape"); continue
  fi
  mv "$WORK/$name.json" "$OUT/$name.json"
  echo "   $(head -1 "$log.status"), $licence ($licence_source)" >&2
  python3 "$HERE/ecosystem-meta.py" entry name="$name" package="$package" registry="$registry" \
    version="$version" license="$licence" license_source="$licence_source" install="$install" \
    launch="${launch//@WORK@/<work>}" note="$note" tools="$tools" captured="$DATE" \
    >"$WORK/entries/$name.json"
done <<< "$SERVERS"

# manifest: this run's entries, plus the previous manifest's for servers not captured now
python3 - "$OUT/manifest.json" "$WORK/entries" "$BELT" "$SERVERS_FROM" "${order[@]}" <<'PY'
import json, os, sys
path, entries, belt, servers_from, order = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
old = {}
if os.path.exists(path):
    with open(path, encoding="utf-8") as f:
        old = {s["name"]: s for s in json.load(f).get("servers", [])}
new = {}
for n in os.listdir(entries):
    with open(os.path.join(entries, n), encoding="utf-8") as f:
        e = json.load(f)
    new[e["name"]] = e
servers = [new.get(n) or old.get(n) for n in order if (new.get(n) or old.get(n))]
doc = {"belt": belt, "captured_by": "scripts/capture-ecosystem.sh"}
if servers_from:
    doc["servers_from"] = servers_from
doc.update(servers=servers, total_tools=sum(s["tools"] for s in servers))
with open(path, "w", encoding="utf-8") as f:
    json.dump(doc, f, indent=2, ensure_ascii=False)
    f.write("\n")
print(f"manifest: {len(servers)} servers, {doc['total_tools']} tools", file=sys.stderr)
PY

if ((${#failed[@]})); then
  printf 'failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
