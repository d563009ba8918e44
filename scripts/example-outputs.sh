#!/usr/bin/env bash
# Writes the bundled example's gate outputs (run.json, ci.json, lint.json, baseline.json) into
# OUT with the volatile fields (timestamps, absolute paths) normalised, so two builds can be
# compared byte for byte: `scripts/example-outputs.sh /tmp/a; (rebuild); scripts/example-outputs.sh
# /tmp/b; diff -r /tmp/a /tmp/b`.
set -euo pipefail
OUT=${1:?usage: scripts/example-outputs.sh OUTDIR}
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TG=${TOOLGATE:-$ROOT/target/debug/toolgate}
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cp -r "$ROOT/fixtures/example" "$WORK/example"
mkdir -p "$WORK/servers" && cp "$ROOT/fixtures/servers/fakemcp.py" "$WORK/servers/"
mkdir -p "$OUT"
(
  cd "$WORK/example"
  env -u GITHUB_ACTIONS -u CI "$TG" ci --no-github --out out >/dev/null 2>"$WORK/stderr" || {
    echo "toolgate ci failed:" >&2; cat "$WORK/stderr" >&2; exit 1; }
)
norm() {
  sed -E -e 's/"(created|finished)": "[^"]*"/"\1": "<time>"/g' \
         -e "s#$WORK#<work>#g" "$1"
}
norm "$WORK/example/out/run/run.json" > "$OUT/run.json"
norm "$WORK/example/out/ci.json" > "$OUT/ci.json"
norm "$WORK/example/out/lint.json" > "$OUT/lint.json"
norm "$WORK/example/out/baseline.json" > "$OUT/baseline.json"
norm "$WORK/example/out/summary.md" > "$OUT/summary.md"
echo "wrote $OUT"
