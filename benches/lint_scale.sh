#!/usr/bin/env bash
# Lint at scale (issue 13, point 5): wall time and peak RSS of `toolgate lint` on synthetic
# snapshots of 500 to 20,000 tools (benches/make_catalog.py) and on one tool with a 10 MB
# description, then the growth exponent fitted on the tool counts (time ∝ n^k).
# Targets: 2,000 tools < 0.25 s, 20,000 tools < 3 s and < 500 MB, 10 MB description < 0.5 s,
# k near 1. Needs a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
TG=${TG:-./target/release/toolgate}
W=${W:-/tmp/toolgate-lint-bench}
mkdir -p "$W"
python3 - "$W/big.json" <<'PY'
import json, sys
d = "Read the file contents. " * (10 * 1024 * 1024 // 24)
json.dump({"tools": [{"name": "big", "description": d, "inputSchema": {"type": "object"}}]}, open(sys.argv[1], "w"))
PY
: > "$W/times"
for n in 500 2000 5000 20000; do
  [ -f "$W/cat-$n.json" ] || python3 benches/make_catalog.py "$n" "$W/cat-$n.json"
  best=
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$W/t" "$TG" lint "$W/cat-$n.json" --format json >/dev/null 2>&1 || true
    read -r s kb < <(tail -1 "$W/t")
    if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then best=$s; rss=$kb; fi
  done
  echo "$n $best" >> "$W/times"
  printf "%6d tools: %5.2f s  %4d MB\n" "$n" "$best" $((rss / 1024))
done
/usr/bin/time -f "%e %M" -o "$W/t" "$TG" lint "$W/big.json" --format json >/dev/null 2>&1 || true
read -r s kb < <(tail -1 "$W/t")
printf "10 MB description: %5.2f s  %4d MB\n" "$s" $((kb / 1024))
python3 - "$W/times" <<'PY'
import math, sys
pts = [tuple(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
xs, ys = [math.log(n) for n, _ in pts], [math.log(max(t, 1e-3)) for _, t in pts]
mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
k = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
print("growth exponent (time ~ n^k, fitted on %d sizes): k = %.2f" % (len(pts), k))
PY
