#!/usr/bin/env bash
# LLM concurrency benchmark: a mock provider answering in a fixed 200 ms; 200 tasks at
# concurrency 8 should take at most 1.15 × ceil(200/8) × 200 ms = 5.75 s.
set -euo pipefail
cd "$(dirname "$0")/.."
TG=./target/release/toolgate
W=${W:-/tmp/toolgate-llm-bench}
PORT=${PORT:-39127}
mkdir -p "$W"
python3 benches/mock_openai.py "$PORT" 200 & MOCK=$!
trap 'kill $MOCK' EXIT
sleep 1
python3 - "$W" <<'PY'
import json, sys
w = sys.argv[1]
json.dump({"tools": [{"name": "book_room", "description": "Reserve a meeting room.", "inputSchema": {"type": "object", "properties": {"room": {"type": "string"}}}}]}, open(w + "/cat.json", "w"))
with open(w + "/tasks.jsonl", "w") as f:
    for i in range(200):
        f.write(json.dumps({"id": "t%03d" % i, "request": "reserve room %d" % i, "kind": "direct", "expected": {"tool": "book_room"}}) + "\n")
PY
hyperfine -w 1 -r 5 -N --prepare "rm -rf $W/run" \
  "$TG run $W/cat.json -t $W/tasks.jsonl -m openai-compat:mock --base-url http://127.0.0.1:$PORT/v1 --concurrency 8 --no-cache --out $W/run --format json"
