#!/usr/bin/env bash
# Sharding at scale: a 100,000-task × 5,000-tool BM25 run, unsharded and split 8 ways then
# merged; the merged run.json `results` must equal the unsharded one byte for byte. Prints the
# wall time and peak RSS of the unsharded run, of the slowest shard and of the merge.
# Needs a release build (cargo build --release) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
TG=${TG:-./target/release/toolgate}
W=${W:-/tmp/toolgate-shard-bench}
N=${N:-8}
mkdir -p "$W"
[ -s "$W/cat.json" ] || python3 benches/make_catalog.py 5000 "$W/cat.json"
[ -s "$W/tasks.jsonl" ] || "$TG" generate "$W/cat.json" -o "$W/tasks.jsonl" --per-tool 20 \
  --near-miss 0 --no-tool 0 --seed 1 2>/dev/null
echo "tasks: $(wc -l < "$W/tasks.jsonl"), tools: 5000"
measure() { # label, command…
  local label=$1; shift
  /usr/bin/time -f "$label: %e s wall, %M KiB peak RSS" "$@" >/dev/null 2>"$W/time.txt" || { cat "$W/time.txt"; exit 1; }
  tail -1 "$W/time.txt"
}
rm -rf "$W/whole" "$W"/shard-* "$W/merged"
measure "unsharded" "$TG" run "$W/cat.json" -t "$W/tasks.jsonl" --out "$W/whole" --format json
for k in $(seq 1 "$N"); do
  measure "shard $k/$N" "$TG" run "$W/cat.json" -t "$W/tasks.jsonl" --shard "$k/$N" --out "$W/shard-$k" --format json
done
measure "merge" "$TG" merge "$W"/shard-* --out "$W/merged" --format json
python3 - "$W" <<'PY'
import json, sys
w = sys.argv[1]
a = json.load(open(w + "/whole/run.json"))["results"]
b = json.load(open(w + "/merged/run.json"))["results"]
same = json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
print("merged results equal the unsharded run's:", same, "| n =", a[0]["metrics"]["n"])
sys.exit(0 if same else 1)
PY
