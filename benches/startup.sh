#!/usr/bin/env bash
# Start-up benchmark (issue 13, point 4): binary size, `--version`, `inspect` of a snapshot,
# and `inspect` of live stdio servers beside a bare listing of the same servers
# (benches/bare_list.py: initialize + tools/list and nothing else). Targets: binary ≤ 25 MB,
# --version < 5 ms, snapshot inspect < 30 ms, live inspect ≤ 1.05 × the bare listing.
# Needs a release build, hyperfine, and the third-party servers (.third-party, see .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
TG=${TG:-./target/release/toolgate}
TP=${TOOLGATE_THIRD_PARTY:-$PWD/.third-party}
export MEMORY_FILE_PATH=${MEMORY_FILE_PATH:-/tmp/toolgate-bench-memory.json}
ls -l "$TG" | awk '{printf "binary: %.1f MB\n", $5 / 1e6}'
hyperfine -N -w 3 -r 30 "$TG --version" "$TG inspect fixtures/catalogs/memory.json"
# Instructions (all threads) of the snapshot inspect: repeatable whatever else the machine is
# doing, so two builds compare even when wall times are noisy.
if command -v valgrind >/dev/null; then
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$TG" inspect fixtures/catalogs/memory.json 2>&1 >/dev/null \
    | awk '/Collected/ {printf "snapshot inspect: %.1f M instructions\n", $4 / 1e6}'
fi
for server in "$TP/npm/node_modules/.bin/mcp-server-memory" "$TP/venv/bin/mcp-server-time"; do
  [ -x "$server" ] || { echo "skip: $server not installed"; continue; }
  hyperfine -N -w 2 -r "${RUNS:-20}" "python3 -S benches/bare_list.py $server" "$TG inspect $server"
done
