#!/usr/bin/env bash
# BM25 run benchmark: 10,000 tasks over synthetic catalogs of 100, 300 and 1,000 tools
# (target: < 3 s and < 200 MiB at 1,000 tools). Needs a release build and hyperfine.
set -euo pipefail
cd "$(dirname "$0")/.."
TG=./target/release/toolgate
W=${W:-/tmp/toolgate-bench}
mkdir -p "$W"
for n in 100 300 1000; do
  python3 benches/make_catalog.py "$n" "$W/cat-$n.json"
  "$TG" generate "$W/cat-$n.json" -o "$W/tasks-$n.jsonl" --per-tool $((10000 / n)) --near-miss 0 --no-tool 0 --seed 1 2>/dev/null
  wc -l < "$W/tasks-$n.jsonl" | xargs echo "tools=$n tasks:"
done
hyperfine -w 1 -r 5 -N -L n 100,300,1000 --prepare "rm -rf $W/run-{n}" \
  "$TG run $W/cat-{n}.json -t $W/tasks-{n}.jsonl -m bm25 --out $W/run-{n} --format json"
/usr/bin/time -v "$TG" run "$W/cat-1000.json" -t "$W/tasks-1000.jsonl" --out "$W/run-mem" --format json 2>&1 >/dev/null \
  | grep -E "Maximum resident|Elapsed" ; rm -rf "$W/run-mem"
