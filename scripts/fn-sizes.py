#!/usr/bin/env python3
"""Lists Rust functions by length (lines from `fn` to its closing brace), test code left out.

Usage: scripts/fn-sizes.py [SRC_DIR] [MIN_LINES]. Braces in strings, chars and comments are
skipped; `#[cfg(test)] mod` blocks and `*_tests.rs`/`tests.rs` files are not counted.
"""
import os
import re
import signal
import sys

# `… | head` ends the listing quietly.
signal.signal(signal.SIGPIPE, signal.SIG_DFL)

FN = re.compile(r'^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?fn\s+(\w+)')


def code_only(text):
    """The text with strings, chars and comments blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i)); i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2); j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j])); i = j
        elif c == 'r' and re.match(r'r#*"', text[i:i + 10]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')):
            m = re.match(r'r(#*)"', text[i:]); hashes = m.group(1)
            end = text.find('"' + hashes, i + len(m.group(0)))
            j = n if end < 0 else end + 1 + len(hashes)
            out.append(re.sub(r'[^\n]', ' ', text[i:j])); i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == '\\' else 1
            out.append(re.sub(r'[^\n]', ' ', text[i:j + 1])); i = j + 1
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 4] + ' '):
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:])
            if m:
                out.append(' ' * len(m.group(0))); i += len(m.group(0))
            else:
                out.append(c); i += 1
        else:
            out.append(c); i += 1
    return ''.join(out)


def functions(path):
    text = code_only(open(path, encoding='utf-8').read())
    lines = text.split('\n')
    # Lines inside #[cfg(test)] modules.
    skip = set()
    for k, l in enumerate(lines):
        if l.strip() == '#[cfg(test)]' and k + 1 < len(lines) and re.match(r'\s*(pub\s+)?mod\s+\w+\s*\{', lines[k + 1]):
            depth, j = 0, k + 1
            while j < len(lines):
                depth += lines[j].count('{') - lines[j].count('}')
                skip.add(j)
                if depth == 0 and '{' in ''.join(lines[k + 1:j + 1]):
                    break
                j += 1
    for k, l in enumerate(lines):
        m = FN.match(l)
        if not m or k in skip:
            continue
        depth, j, opened = 0, k, False
        while j < len(lines):
            for ch in lines[j]:
                if ch == '{':
                    depth += 1; opened = True
                elif ch == '}':
                    depth -= 1
                elif ch == ';' and not opened and depth == 0:
                    break
            else:
                if opened and depth == 0:
                    break
                j += 1
                continue
            break
        if opened:
            yield m.group(1), k + 1, j - k + 1


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else 'src'
    floor = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    rows = []
    for root, _, names in os.walk(src):
        for name in names:
            if not name.endswith('.rs') or name.endswith('_tests.rs') or name == 'tests.rs':
                continue
            p = os.path.join(root, name)
            rows += [(n, p, line, size) for n, line, size in functions(p)]
    rows.sort(key=lambda r: -r[3])
    for n, p, line, size in rows:
        if size >= floor:
            print(f'{size:5} {p}:{line} {n}')


if __name__ == '__main__':
    main()
