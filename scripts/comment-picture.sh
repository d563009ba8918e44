#!/usr/bin/env bash
# Draws assets/pr-comment.png, the picture of the PR comment at the top of README.md, from the
# comment the snapshot tests pin (tests/it/snapshots/it__surface__comment-with-base.snap), so
# the picture shows exactly what toolgate writes. Run it after that snapshot changes.
#
# Needs: python3 (markdown-it-py is installed into a temporary venv from PyPI), headless
# Chromium (Debian: chromium) and an emoji font (Debian: fonts-noto-color-emoji).
set -euo pipefail
cd "$(dirname "$0")/.."
snap=tests/it/snapshots/it__surface__comment-with-base.snap
out=assets/pr-comment.png
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q markdown-it-py==4.0.0

# The comment as GitHub renders it: GFM tables, <details> closed, in GitHub's light theme's
# colours and fonts (approximated), 760 px wide like a PR conversation column.
"$work/venv/bin/python" - "$snap" "$work/comment.html" <<'PY'
import html, re, sys
from markdown_it import MarkdownIt

text = open(sys.argv[1], encoding="utf-8").read()
body = text.split("\n---\n", 1)[1]            # drop insta's header
body = body.replace("<repo>/", "")             # the snapshot's redaction of the temp folder
md = MarkdownIt("commonmark", {"html": True}).enable("table").enable("strikethrough")
rendered = md.render(body)
css = """
body { margin: 0; background: #fff; font: 14px/1.5 -apple-system, 'Segoe UI', 'Liberation Sans',
       'DejaVu Sans', 'Noto Color Emoji', sans-serif; color: #1f2328; }
.box { width: 760px; margin: 16px; border: 1px solid #d1d9e0; border-radius: 6px; }
.hdr { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; padding: 8px 16px;
       color: #59636e; border-radius: 6px 6px 0 0; }
.hdr b { color: #1f2328; }
.md { padding: 8px 16px 16px; }
h2 { font-size: 1.5em; border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; margin: 16px 0; }
h3 { font-size: 1.25em; margin: 24px 0 16px; }
table { border-collapse: collapse; margin: 0 0 16px; display: block; overflow: auto; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
th { font-weight: 600; } tr:nth-child(2n) { background: #f6f8fa; }
code { font: 12px 'DejaVu Sans Mono', monospace; background: #eff1f3; padding: .2em .4em;
       border-radius: 6px; }
blockquote { color: #59636e; border-left: .25em solid #d1d9e0; margin: 0 0 16px; padding: 0 1em; }
details { margin: 0 0 16px; } summary { cursor: pointer; }
p { margin: 0 0 16px; }
"""
page = f"""<!doctype html><meta charset="utf-8"><style>{css}</style>
<div class="box"><div class="hdr"><b>github-actions</b> <span>bot</span> commented</div>
<div class="md">{rendered}</div></div>"""
open(sys.argv[2], "w", encoding="utf-8").write(page)
PY

chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
  --window-size=800,1150 --screenshot="$work/full.png" "file://$work/comment.html" 2>/dev/null
mkdir -p assets
cp "$work/full.png" "$out"
# What the picture shows (the comment down to its tool definitions), hashed: a test compares
# it with the snapshot, so a picture that no longer shows what toolgate writes fails CI.
python3 - "$snap" > assets/pr-comment.source.sha256 <<'PY'
import hashlib, sys
body = open(sys.argv[1], encoding="utf-8").read().split("\n---\n", 1)[1]
shown = body.split("### Tool definitions", 1)[0]
print(hashlib.sha256(shown.encode()).hexdigest())
PY
echo "wrote $out"
