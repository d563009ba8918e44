#!/usr/bin/env bash
# Peak RSS of `toolgate ci` (BM25, ablation off) over a grid of catalog sizes and task counts:
# memory must grow with tasks plus tools, not with tasks × tools (issue 25, point 5). Each task
# once kept a catalog-sized BM25 ranking (its baseline marks), and the baseline's seal hashed
# two more copies of the whole tree. Needs a build (TG, default the debug one) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
TG=${TG:-./target/debug/toolgate}
W=${W:-/tmp/toolgate-ci-memory}
mkdir -p "$W"
for tools in 100 400 1600; do
  [ -s "$W/cat$tools.json" ] || python3 benches/make_catalog.py "$tools" "$W/cat$tools.json"
  [ -s "$W/t$tools.jsonl" ] || "$TG" generate "$W/cat$tools.json" -o "$W/t$tools.jsonl" \
    --per-tool $((4400 / tools)) --seed 1 2>/dev/null
  for n in 1500 4400; do
    head -"$n" "$W/t$tools.jsonl" > "$W/t$tools-$n.jsonl"
    /usr/bin/time -f "%M" "$TG" ci --server "$W/cat$tools.json" -t "$W/t$tools-$n.jsonl" \
      --no-github --out "$W/out" --ablation false >/dev/null 2>"$W/time.txt" || true
    echo "tools=$tools tasks=$(wc -l < "$W/t$tools-$n.jsonl") peak_rss_kib=$(tail -1 "$W/time.txt")"
  done
done
