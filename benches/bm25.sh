#!/usr/bin/env bash
# BM25 run benchmark: 10,000 tasks over synthetic catalogs of 100, 300 and 1,000 tools
# (target: < 3 s and < 200 MiB at 1,000 tools), then 100,000 tasks over 5,000 tools unsharded
# (issue 13, point 6: < 8 s and < 200 MiB). Needs a release build and hyperfine.
# BIG=0 skips the 100k × 5k run.
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
[ "${BIG:-1}" = 0 ] && exit 0
python3 benches/make_catalog.py 5000 "$W/cat-5000.json"
"$TG" generate "$W/cat-5000.json" -o "$W/tasks-5000.jsonl" --per-tool 20 --near-miss 0 --no-tool 0 --seed 1 2>/dev/null
wc -l < "$W/tasks-5000.jsonl" | xargs echo "tools=5000 tasks:"
rm -rf "$W/run-big"
/usr/bin/time -v "$TG" run "$W/cat-5000.json" -t "$W/tasks-5000.jsonl" -m bm25 --out "$W/run-big" --format json 2>&1 >/dev/null \
  | grep -E "Maximum resident|Elapsed"; rm -rf "$W/run-big"
