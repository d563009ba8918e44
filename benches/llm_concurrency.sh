#!/usr/bin/env bash
# LLM concurrency benchmark: a mock provider answering in a fixed LATENCY ms (default 200);
# N tasks (default 200) at concurrency C = 1, 4, 16 (CS="1 4 16"). The target is wall time
# ≤ 1.15 × ceil(N/C) × latency; the script prints that ideal beside hyperfine's mean.
# Then a duplicate check: a suite of N tasks with only DISTINCT (default 127) different
# requests, run at C = 16 with the cache on, must send exactly DISTINCT requests.
#   benches/llm_concurrency.sh            # needs target/release/toolgate
set -euo pipefail
cd "$(dirname "$0")/.."
TG=${TG:-./target/release/toolgate}
W=${W:-/tmp/toolgate-llm-bench}
PORT=${PORT:-39127}
N=${N:-200}
LATENCY=${LATENCY:-200}
CS=${CS:-1 4 16}
DISTINCT=${DISTINCT:-127}
RUNS=${RUNS:-3}
mkdir -p "$W"
python3 benches/mock_openai.py "$PORT" "$LATENCY" & MOCK=$!
trap 'kill $MOCK' EXIT
sleep 1
python3 - "$W" "$N" "$DISTINCT" <<'PY'
import json, sys
w, n, distinct = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
json.dump({"tools": [{"name": "book_room", "description": "Reserve a meeting room.", "inputSchema": {"type": "object", "properties": {"room": {"type": "string"}}}}]}, open(w + "/cat.json", "w"))
# Duplicates sit next to each other in the suite, so they are in flight at the same time.
for name, k in (("tasks", n), ("dups", distinct)):
    with open("%s/%s.jsonl" % (w, name), "w") as f:
        for i in range(n):
            f.write(json.dumps({"id": "t%03d" % i, "request": "reserve room %d" % (i * k // n), "kind": "direct", "expected": {"tool": "book_room"}}) + "\n")
PY
BASE="$TG run $W/cat.json -m openai-compat:mock --base-url http://127.0.0.1:$PORT/v1 --format json"
for C in $CS; do
  python3 -c "import math; print('C=%d: ideal ceil(%d/%d) x %d ms = %.2f s; target (x1.15) %.2f s' % ($C, $N, $C, $LATENCY, math.ceil($N/$C)*$LATENCY/1000, 1.15*math.ceil($N/$C)*$LATENCY/1000))"
  hyperfine -r "$RUNS" -N --prepare "rm -rf $W/run" --export-json "$W/c$C.json" \
    "$BASE -t $W/tasks.jsonl --concurrency $C --no-cache --out $W/run"
done
# Duplicates: DISTINCT different requests among N tasks at C = 16, cache on (fresh each run):
# only DISTINCT requests go out, so the ideal is ceil(DISTINCT/16) × latency.
python3 -c "import math; print('duplicates, C=16: ideal ceil(%d/16) x %d ms = %.2f s; target (x1.15) %.2f s' % ($DISTINCT, $LATENCY, math.ceil($DISTINCT/16)*$LATENCY/1000, 1.15*math.ceil($DISTINCT/16)*$LATENCY/1000))"
hyperfine -r "$RUNS" -N --prepare "rm -rf $W/run $W/cache" --export-json "$W/dups.json" \
  "$BASE -t $W/dups.jsonl --concurrency 16 --cache-dir $W/cache --out $W/run"
for i in 1 2 3; do
  rm -rf "$W/run" "$W/cache"
  curl -s -X POST "http://127.0.0.1:$PORT/calls/reset" >/dev/null
  $BASE -t "$W/dups.jsonl" --concurrency 16 --cache-dir "$W/cache" --out "$W/run" >/dev/null 2>&1 || true
  echo "duplicates at C=16: $(curl -s "http://127.0.0.1:$PORT/calls") requests sent for $DISTINCT distinct"
done
