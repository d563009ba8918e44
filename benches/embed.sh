#!/usr/bin/env bash
# Embedding router benchmark (issue 12, point 6): 10,000 tasks over a synthetic 1,000-tool
# catalog with all-MiniLM-L6-v2 (target: < 60 s on 2 cores), cold (tool embeddings computed)
# and warm (read from the on-disk cache), then the hybrid router warm. Prints wall time and
# peak RSS. Needs a release build (cargo build --release), python3, and the model
# (.ci/run fetches it into $TOOLGATE_THIRD_PARTY/minilm; MODEL=<dir> to use another folder).
set -euo pipefail
cd "$(dirname "$0")/.."
TG=${TG:-./target/release/toolgate}
MODEL=${MODEL:-${TOOLGATE_THIRD_PARTY:-$PWD/.third-party}/minilm}
W=${W:-/tmp/toolgate-embed-bench}
mkdir -p "$W"
[ -s "$W/cat-1000.json" ] || python3 benches/make_catalog.py 1000 "$W/cat-1000.json"
[ -s "$W/tasks.jsonl" ] || "$TG" generate "$W/cat-1000.json" -o "$W/tasks.jsonl" --per-tool 10 \
  --near-miss 0 --no-tool 0 --seed 1 2>/dev/null
echo "tasks: $(wc -l < "$W/tasks.jsonl") ($(python3 -c 'import json,sys; print(len({json.loads(l)["request"] for l in open(sys.argv[1])}))' "$W/tasks.jsonl") distinct requests), tools: 1000, cores: $(nproc)"
measure() { # label, command…
  local label=$1; shift
  /usr/bin/time -f "$label: %e s wall, %U s user, %M KiB peak RSS" "$@" >/dev/null 2>"$W/time.txt" || { cat "$W/time.txt"; exit 1; }
  grep -E "^embed:" "$W/time.txt" || true
  tail -1 "$W/time.txt"
}
export TOOLGATE_CACHE_DIR="$W/cache"
rm -rf "$W/cache" "$W"/run-*
measure "embed, cold cache" "$TG" run "$W/cat-1000.json" -t "$W/tasks.jsonl" -m "embed:$MODEL" --out "$W/run-cold" --format json
measure "embed, warm cache" "$TG" run "$W/cat-1000.json" -t "$W/tasks.jsonl" -m "embed:$MODEL" --out "$W/run-warm" --format json
measure "hybrid, warm cache" "$TG" run "$W/cat-1000.json" -t "$W/tasks.jsonl" -m "hybrid:$MODEL" --out "$W/run-hybrid" --format json
python3 - "$W" <<'PY'
import json, sys
for r in ("run-warm", "run-hybrid"):
    m = json.load(open(sys.argv[1] + "/" + r + "/run.json"))["results"][0]
    print(r, m["model"].split(":")[0], "accuracy", round(m["metrics"]["accuracy"]["value"], 3),
          "recall@10", round(m["metrics"]["retrieval"]["overall"]["recall"]["10"]["value"], 3))
PY
