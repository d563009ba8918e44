#!/usr/bin/env python3
"""Reference sentence embeddings for tests/it/embed.rs, computed independently of toolgate.

BERT is written out here by hand in numpy (no candle, no torch): the safetensors file is parsed
by hand, the WordPiece tokenizer is implemented from the vocabulary in tokenizer.json (BERT's
basic tokenizer: clean, lower-case, strip accents, split punctuation; then greedy
longest-match-first word pieces), and the encoder follows the original BERT (post-LayerNorm,
exact erf GELU), then mean pooling over the attention mask and L2 normalisation as
sentence-transformers does.

Usage (numpy only; a throwaway venv is enough):
    python3 -m venv /tmp/ref && /tmp/ref/bin/pip install numpy
    /tmp/ref/bin/python scripts/embed-reference.py $TOOLGATE_THIRD_PARTY/minilm \
        > fixtures/embed/reference.json
"""

import json
import math
import struct
import sys
import unicodedata

import numpy as np

SENTENCES = [
    "What's the weather forecast in Lisbon tomorrow?",
    "Will it rain in Porto this weekend?",
    "Send an email to Alice about the quarterly report.",
    "Delete the file notes.txt from my home folder.",
    "Remove notes.txt, I don't need it anymore.",
    "Tell me a joke about penguins.",
]
PAIRS = [(0, 1), (0, 2), (2, 3), (3, 4), (4, 5), (1, 5)]


def load_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    kinds = {"F32": np.float32, "F16": np.float16}
    out = {}
    for name, info in header.items():
        if name == "__metadata__" or info["dtype"] not in kinds:
            continue  # e.g. an I64 position_ids buffer
        a, b = info["data_offsets"]
        dt = kinds[info["dtype"]]
        out[name] = np.frombuffer(data[a:b], dtype=dt).reshape(info["shape"]).astype(np.float32)
    return out


def is_punct(ch):
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def basic_tokens(text):
    text = "".join(
        " " if ch.isspace() else ch
        for ch in text
        if not (ord(ch) == 0 or ord(ch) == 0xFFFD or unicodedata.category(ch) in ("Cc", "Cf") and not ch.isspace())
    )
    text = unicodedata.normalize("NFD", text.lower())
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Mn")
    out = []
    for word in text.split():
        cur = ""
        for ch in word:
            if is_punct(ch):
                if cur:
                    out.append(cur)
                    cur = ""
                out.append(ch)
            else:
                cur += ch
        if cur:
            out.append(cur)
    return out


def wordpiece(word, vocab):
    if len(word) > 100:
        return ["[UNK]"]
    pieces, start = [], 0
    while start < len(word):
        end, piece = len(word), None
        while start < end:
            sub = word[start:end] if start == 0 else "##" + word[start:end]
            if sub in vocab:
                piece = sub
                break
            end -= 1
        if piece is None:
            return ["[UNK]"]
        pieces.append(piece)
        start = end
    return pieces


def tokenize(text, vocab, max_len):
    toks = [p for w in basic_tokens(text) for p in wordpiece(w, vocab)]
    toks = toks[: max_len - 2]
    return [vocab["[CLS]"]] + [vocab[t] for t in toks] + [vocab["[SEP]"]]


def layer_norm(x, w, b, eps):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def gelu(x):
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def encode(ids, w, cfg):
    p = "" if "embeddings.word_embeddings.weight" in w else "bert."
    n = len(ids)
    x = w[p + "embeddings.word_embeddings.weight"][ids]
    x = x + w[p + "embeddings.position_embeddings.weight"][:n]
    x = x + w[p + "embeddings.token_type_embeddings.weight"][0]
    eps = cfg["layer_norm_eps"]
    x = layer_norm(x, w[p + "embeddings.LayerNorm.weight"], w[p + "embeddings.LayerNorm.bias"], eps)
    heads = cfg["num_attention_heads"]
    hd = cfg["hidden_size"] // heads
    lin = lambda v, name: v @ w[name + ".weight"].T + w[name + ".bias"]
    for i in range(cfg["num_hidden_layers"]):
        L = f"{p}encoder.layer.{i}."
        q = lin(x, L + "attention.self.query").reshape(n, heads, hd).transpose(1, 0, 2)
        k = lin(x, L + "attention.self.key").reshape(n, heads, hd).transpose(1, 0, 2)
        v = lin(x, L + "attention.self.value").reshape(n, heads, hd).transpose(1, 0, 2)
        s = q @ k.transpose(0, 2, 1) / math.sqrt(hd)
        s = np.exp(s - s.max(-1, keepdims=True))
        s = s / s.sum(-1, keepdims=True)
        ctx = (s @ v).transpose(1, 0, 2).reshape(n, heads * hd)
        a = lin(ctx, L + "attention.output.dense")
        x = layer_norm(a + x, w[L + "attention.output.LayerNorm.weight"], w[L + "attention.output.LayerNorm.bias"], eps)
        h = gelu(lin(x, L + "intermediate.dense"))
        o = lin(h, L + "output.dense")
        x = layer_norm(o + x, w[L + "output.LayerNorm.weight"], w[L + "output.LayerNorm.bias"], eps)
    v = x.mean(0)  # one unpadded sentence: the mask is all ones
    return v / np.linalg.norm(v)


def main():
    d = sys.argv[1]
    cfg = json.load(open(f"{d}/config.json"))
    vocab = json.load(open(f"{d}/tokenizer.json"))["model"]["vocab"]
    try:
        max_len = json.load(open(f"{d}/sentence_bert_config.json"))["max_seq_length"]
    except (OSError, KeyError):
        max_len = 256
    w = load_safetensors(f"{d}/model.safetensors")
    embs = [encode(tokenize(s, vocab, max_len), w, cfg) for s in SENTENCES]
    out = {
        "generator": "scripts/embed-reference.py (numpy BERT by hand)",
        "model": cfg.get("_name_or_path", ""),
        "sentences": SENTENCES,
        "token_ids_0": tokenize(SENTENCES[0], vocab, max_len),
        "first_dims_0": [round(float(x), 6) for x in embs[0][:8]],
        "cosines": [
            {"a": a, "b": b, "cosine": round(float(embs[a] @ embs[b]), 6)} for a, b in PAIRS
        ],
    }
    json.dump(out, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
