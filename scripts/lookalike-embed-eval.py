#!/usr/bin/env python3
"""Would embedding similarity help TG005 (look-alike tools)? A measurement, not a rule.

For every labelled catalog of the look-alike benchmark (fixtures/lookalike/), takes the pairs
TG005 reports today (`toolgate lint --format json`), embeds every tool's text with
all-MiniLM-L6-v2 (the numpy BERT of scripts/embed-reference.py, independent of toolgate's
candle code), and scores precision/recall of:
  - lexical: TG005 as it is;
  - filter τ: TG005's pairs whose cosine is at least τ (embeddings as a second opinion);
  - union τ: TG005's pairs plus every other pair whose cosine is at least τ.
Tuning set (fixtures/lookalike without heldout/) and held-out set are reported apart.

    /tmp/ref/bin/python scripts/lookalike-embed-eval.py MODEL_DIR [TOOLGATE_BINARY]
"""

import glob
import importlib.util
import json
import os
import re
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("ref", os.path.join(HERE, "embed-reference.py"))
ref = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ref)

# A vectorised erf (Abramowitz–Stegun 7.1.26, |error| < 1.5e-7) instead of the reference
# script's exact per-element math.erf: fast enough for ~1,300 tools.
def fast_gelu(x):
    s = np.sign(x / np.sqrt(2.0))
    z = np.abs(x / np.sqrt(2.0))
    t = 1.0 / (1.0 + 0.3275911 * z)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * np.exp(-z * z)
    return 0.5 * x * (1.0 + s * y)


ref.gelu = fast_gelu


def name_words(name):
    parts = re.split(r"[^0-9A-Za-z]+", name)
    out = []
    for p in parts:
        out += [w.lower() for w in re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+", p)]
    return out


def tool_text(t):
    s = " ".join(name_words(t.get("name", "")))
    for part in (t.get("title"), t.get("description")):
        if isinstance(part, str) and part.strip():
            s += ". " + part.strip().rstrip(".")
    props = ((t.get("inputSchema") or {}).get("properties") or {})
    if props:
        s += ". Parameters:"
        for k, v in props.items():
            s += " " + " ".join(name_words(k))
            d = v.get("description") if isinstance(v, dict) else None
            if isinstance(d, str):
                s += " (" + d.strip()[:400] + ")"
            s += ";"
    return s[:4000]


def lexical_pairs(binary, catalog):
    out = subprocess.run([binary, "lint", catalog, "--format", "json"], capture_output=True, text=True)
    pairs = set()
    for f in json.loads(out.stdout)["findings"]:
        if f["code"] != "TG005":
            continue
        m = re.match(r"`(.*?)` looks like `(.*?)`", f["message"])
        if m:
            pairs.add(tuple(sorted((f["tool"], m.group(2)))))
    return pairs


def score(flagged, truth):
    tp = len(flagged & truth)
    return tp, len(flagged - truth), len(truth - flagged)


def main():
    model = sys.argv[1]
    binary = sys.argv[2] if len(sys.argv) > 2 else "target/release/toolgate"
    cfg = json.load(open(f"{model}/config.json"))
    vocab = json.load(open(f"{model}/tokenizer.json"))["model"]["vocab"]
    w = ref.load_safetensors(f"{model}/model.safetensors")
    variants = [("lexical", None)] + [("filter", t) for t in (0.4, 0.5, 0.6, 0.7, 0.8)] + [
        ("union", t) for t in (0.8, 0.85, 0.9)
    ]
    totals = {}
    for labels in sorted(glob.glob("fixtures/lookalike/**/*.labels.json", recursive=True)):
        cat = labels.replace(".labels.json", ".json")
        group = "heldout" if "/heldout/" in labels else "tuning"
        tools = json.load(open(cat))["tools"]
        names = [t["name"] for t in tools]
        truth = {tuple(sorted(p["pair"])) for p in json.load(open(labels))["lookalikes"]}
        lex = lexical_pairs(binary, cat)
        vecs = np.array([ref.encode(ref.tokenize(tool_text(t), vocab, 256), w, cfg) for t in tools])
        cos = vecs @ vecs.T
        idx = {n: i for i, n in enumerate(names)}
        pair_cos = lambda p: cos[idx[p[0]], idx[p[1]]]
        for name, tau in variants:
            if name == "lexical":
                flagged = lex
            elif name == "filter":
                flagged = {p for p in lex if pair_cos(p) >= tau}
            else:
                flagged = set(lex)
                for i in range(len(names)):
                    for j in range(i + 1, len(names)):
                        if names[i] != names[j] and cos[i, j] >= tau:
                            flagged.add(tuple(sorted((names[i], names[j]))))
            s = score(flagged, truth)
            key = (group, name, tau)
            totals[key] = tuple(a + b for a, b in zip(totals.get(key, (0, 0, 0)), s))
        print(f"{cat}: {len(tools)} tools, {len(truth)} true pairs, lexical {score(lex, truth)}", file=sys.stderr)
        for p in sorted(lex - truth):
            print(f"  lexical false pair {p}: cosine {pair_cos(p):.3f}", file=sys.stderr)
        for p in sorted(truth - lex):
            print(f"  missed true pair {p}: cosine {pair_cos(p):.3f}", file=sys.stderr)
    print("set      variant  τ     TP   FP   FN  precision recall")
    for (group, name, tau), (tp, fp, fn) in totals.items():
        p = tp / (tp + fp) if tp + fp else 1.0
        r = tp / (tp + fn) if tp + fn else 1.0
        print(f"{group:8} {name:8} {tau if tau is not None else '-':<5} {tp:4} {fp:4} {fn:4}  {p:9.3f} {r:6.3f}")


if __name__ == "__main__":
    main()
