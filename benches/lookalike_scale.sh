#!/usr/bin/env bash
# Look-alike recall at scale (issue 40 point 9): planted catalogs of 500, 2,000, 5,000 and
# 20,000 tools (benches/lookalike_scale.py), each linted once; prints the share of planted
# pairs TG005 reports, the CPU time (user + sys) and peak RSS, then the growth exponent of CPU
# time over the sizes. Target: recall >= 95 % at 20,000 tools, 20,000 tools < 3 s CPU and
# < 500 MB, exponent <= 1.0. Needs a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
TG=${TG:-./target/release/toolgate}
W=${W:-/tmp/toolgate-lookalike-scale}
mkdir -p "$W"
: > "$W/times"
for n in ${SIZES:-500 2000 5000 20000}; do
  [ -f "$W/la-$n.json" ] || python3 benches/lookalike_scale.py --tools "$n" --out "$W/la-$n" >/dev/null
  /usr/bin/time -f "%U %S %M" -o "$W/t" "$TG" lint "$W/la-$n.json" --format json > "$W/lint-$n.json" 2>/dev/null || true
  read -r u s kb < <(tail -1 "$W/t")
  cpu=$(awk "BEGIN{print $u + $s}")
  echo "$n $cpu" >> "$W/times"
  python3 - "$W/la-$n.labels.json" "$W/lint-$n.json" "$n" "$cpu" "$kb" <<'PY'
import json, sys
labels = json.load(open(sys.argv[1]))["lookalikes"]
lint = json.load(open(sys.argv[2]))
found = set()
for f in lint.get("findings", []):
    if f.get("code") == "TG005" and f.get("tool") and f.get("pair"):
        found.add(frozenset((f["tool"], f["pair"])))
hit = [l for l in labels if frozenset(l["pair"]) in found]
by_kind = {}
for l in labels:
    k = by_kind.setdefault(l["kind"], [0, 0])
    k[1] += 1
    k[0] += frozenset(l["pair"]) in found
kinds = ", ".join("%s %d/%d" % (k, v[0], v[1]) for k, v in sorted(by_kind.items()))
print("%6s tools: recall %5.1f%% (%d/%d; %s), %d TG005 pairs, CPU %.2f s, %d MB"
      % (sys.argv[3], 100.0 * len(hit) / len(labels), len(hit), len(labels), kinds,
         len(found), float(sys.argv[4]), int(sys.argv[5]) // 1024))
PY
done
python3 - "$W/times" <<'PY'
import math, sys
pts = [tuple(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
if len(pts) > 1:
    xs, ys = [math.log(n) for n, _ in pts], [math.log(max(t, 1e-3)) for _, t in pts]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    k = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    print("growth exponent (CPU ~ n^k): k = %.2f" % k)
PY
