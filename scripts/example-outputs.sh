#!/usr/bin/env bash
# Writes the bundled example's outputs into OUT with the volatile fields (timestamps, absolute
# paths, durations) normalised, so two builds can be compared byte for byte:
#   scripts/example-outputs.sh /tmp/a; (rebuild); scripts/example-outputs.sh /tmp/b; diff -r /tmp/a /tmp/b
# It covers `ci` (run.json, ci.json, lint.json, baseline.json, summary.md, comment.md, the badge, the
# reports and the terminal output), `run` in and outside a belt, `report`, `compare`, `merge`
# of shards, `lint` in each format, `inspect`, `pin --check` and `validate`.
set -euo pipefail
OUT=${1:?usage: scripts/example-outputs.sh OUTDIR}
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TG=${TOOLGATE:-$ROOT/target/debug/toolgate}
WORK="$(mktemp -d)" && chmod 755 "$WORK"  # the sandboxed server (uid 65534) reads it
trap 'rm -rf "$WORK"' EXIT
cp -r "$ROOT/fixtures/example" "$WORK/example"
mkdir -p "$WORK/belts" && cp -r "$ROOT/fixtures/belts/shadowing" "$WORK/belts/shadowing"
mkdir -p "$WORK/servers" && cp "$ROOT/fixtures/servers/fakemcp.py" "$WORK/servers/"
mkdir -p "$OUT"
norm() {
  sed -E -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z/<time>/g' \
         -e 's/[0-9]+(\.[0-9]+)? ?(ms|s)\b/<dur>/g' \
         -e 's/"content_sha256": "[0-9a-f]{64}"/"content_sha256": "<seal over the times above>"/' \
         -e "s#$WORK#<work>#g" -e "s#$ROOT#<root>#g" "$1"
}
# Runs one toolgate command in the example folder; its stdout, stderr and exit code go to OUT/NAME.*
tg() {
  local name=$1; shift
  local rc=0
  (cd "$WORK/${IN:-example}" && env -u GITHUB_ACTIONS -u CI -u GITHUB_STEP_SUMMARY -u GITHUB_OUTPUT NO_COLOR=1 \
    "$TG" "$@" >"$WORK/$name.stdout" 2>"$WORK/$name.stderr") || rc=$?
  norm "$WORK/$name.stdout" > "$OUT/$name.stdout"
  norm "$WORK/$name.stderr" > "$OUT/$name.stderr"
  echo "$rc" > "$OUT/$name.exit"
}
tg ci ci --no-github --out out
[ "$(cat "$OUT/ci.exit")" = 0 ] || { echo "toolgate ci failed:" >&2; cat "$OUT/ci.stderr" >&2; exit 1; }
for f in run/run.json run/report.md run/report.html run/outcomes.jsonl ci.json lint.json baseline.json summary.md comment.md badge.svg badge.json; do
  [ -f "$WORK/example/out/$f" ] && norm "$WORK/example/out/$f" > "$OUT/ci-$(echo "$f" | tr / -)"
done
SERVER="python3 ../servers/fakemcp.py after.json"
BEFORE="python3 ../servers/fakemcp.py before.json"
tg run-term run "$SERVER" -t tasks.jsonl -m bm25 --out runs/a
tg run-before run "$BEFORE" -t tasks.jsonl -m bm25 --out runs/b --format json
tg run-md run "$SERVER" -t tasks.jsonl -m bm25 --out runs/c --format markdown --fail-under 0.99
tg report report runs/a --fail-under 0.5
tg compare compare runs/b runs/a
tg shard1 run "$SERVER" -t tasks.jsonl -m bm25 --out runs/s1 --shard 1/2
tg shard2 run "$SERVER" -t tasks.jsonl -m bm25 --out runs/s2 --shard 2/2
tg merge merge runs/s1 runs/s2 --out runs/merged
# In the embedded ecosystem belt: the belt run, your catalog alone beside it, the distractor curve.
tg belt-run run "$SERVER" -t tasks.jsonl -m bm25 --out runs/belt --belt ecosystem --curve-sizes 0,5,20
for d in a b c merged belt; do
  for f in run.json report.md report.html; do
    norm "$WORK/example/runs/$d/$f" > "$OUT/runs-$d-$f"
  done
done
tg lint-term lint "$SERVER"
tg lint-json lint "$SERVER" --format json
tg lint-sarif lint "$BEFORE" --format sarif
tg lint-md lint "$BEFORE" --format markdown
tg lint-gh lint "$BEFORE" --format github
tg inspect inspect "$SERVER"
tg pin-check pin --check "$SERVER"
tg pin-before pin --check "$BEFORE"
tg validate validate -t tasks.jsonl "$SERVER"
tg inspect-json inspect "$SERVER" --json
# A belt (three servers of an MCP client config): inspect, lint, pin and pin --check.
IN=belts/shadowing tg belt-inspect inspect --mcp-config mcp.json
IN=belts/shadowing tg belt-inspect-json inspect --mcp-config mcp.json --json
IN=belts/shadowing tg belt-lint lint --mcp-config mcp.json --format json
IN=belts/shadowing tg belt-pin pin --mcp-config mcp.json
IN=belts/shadowing tg belt-pin-check pin --check --mcp-config mcp.json
echo "wrote $OUT"
