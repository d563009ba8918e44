#!/usr/bin/env python3
"""Helpers for scripts/capture-ecosystem.sh.

  ecosystem-meta.py licence npm PKGDIR        -> "SPDX<TAB>where it was read" (exit 1: not allowed)
  ecosystem-meta.py licence pypi PYTHON DIST  -> same, read with that interpreter's importlib.metadata
  ecosystem-meta.py count SNAPSHOT            -> number of tools (exit 1 when a tool lacks
                                                 name/description/inputSchema or the shape is wrong)
  ecosystem-meta.py entry KEY=VALUE...        -> prints one manifest entry (tools is an integer)

The licence is read from the installed package only: package.json `license` (following
"SEE LICENSE IN FILE" to the file, or to the README's License section when the file is not
shipped), or the wheel's License-Expression, License, classifiers, licence files and the
long description's License section. Only OSI-approved licences that allow redistribution
are accepted.
"""
import json
import os
import re
import subprocess
import sys

ALLOWED = {"MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "ISC", "MPL-2.0", "0BSD"}

CLASSIFIERS = {
    "License :: OSI Approved :: MIT License": "MIT",
    "License :: OSI Approved :: Apache Software License": "Apache-2.0",
    "License :: OSI Approved :: BSD License": "BSD-3-Clause",
    "License :: OSI Approved :: ISC License (ISCL)": "ISC",
    "License :: OSI Approved :: Mozilla Public License 2.0 (MPL 2.0)": "MPL-2.0",
}


def classify(text):
    """SPDX id of a licence text or a README sentence naming one, else None."""
    t = " ".join(text.split())
    if re.search(r"Permission is hereby granted, free of charge", t) or \
            re.search(r"\b(the )?MIT License\b|\blicensed under (the )?MIT\b", t, re.I):
        return "MIT"
    if re.search(r"Apache License,? Version 2\.0|Apache License Version 2\.0|Apache-2\.0", t, re.I):
        return "Apache-2.0"
    if re.search(r"BSD 3-Clause", t, re.I):
        return "BSD-3-Clause"
    if re.search(r"BSD 2-Clause", t, re.I):
        return "BSD-2-Clause"
    if re.search(r"\bISC License\b", t):
        return "ISC"
    if re.search(r"Mozilla Public License,? (Version )?2\.0", t, re.I):
        return "MPL-2.0"
    return None


def licence_section(markdown):
    m = re.search(r"^#+\s*Licen[cs]e\s*$(.*?)(?=^#+\s|\Z)", markdown, re.M | re.S | re.I)
    return m.group(1).strip() if m else None


def normalise(value):
    if not value:
        return None
    v = value.strip()
    for spdx in ALLOWED:
        if v.lower() == spdx.lower():
            return spdx
    if v in ("Apache 2.0", "Apache License 2.0", "Apache Software License"):
        return "Apache-2.0"
    if v == "MIT License":
        return "MIT"
    return None


def npm_licence(pkgdir):
    with open(os.path.join(pkgdir, "package.json"), encoding="utf-8") as f:
        pj = json.load(f)
    lic = pj.get("license")
    if isinstance(lic, dict):
        lic = lic.get("type")
    if lic is None and isinstance(pj.get("licenses"), list) and pj["licenses"]:
        lic = pj["licenses"][0].get("type")
    spdx = normalise(lic) if isinstance(lic, str) else None
    if spdx:
        return spdx, "package.json license"
    files = [n for n in sorted(os.listdir(pkgdir)) if re.match(r"(?i)licen[cs]e", n)]
    m = re.match(r"SEE LICEN[CS]E IN (\S+)", lic or "", re.I)
    if m and os.path.isfile(os.path.join(pkgdir, m.group(1))):
        files.insert(0, m.group(1))
    for name in files:
        with open(os.path.join(pkgdir, name), encoding="utf-8", errors="replace") as f:
            spdx = classify(f.read(4000))
        if spdx:
            note = f"package.json says {lic!r}; " if lic else "no package.json license; "
            return spdx, note + f"{name} in the package"
    readme = os.path.join(pkgdir, "README.md")
    if os.path.isfile(readme):
        with open(readme, encoding="utf-8", errors="replace") as f:
            section = licence_section(f.read())
        spdx = classify(section) if section else None
        if spdx:
            return spdx, f"package.json says {lic!r}, file not shipped; README License section"
    return None, f"package.json license {lic!r}, no licence text found"


PY_READ = r"""
import json, sys, importlib.metadata as m
d = m.distribution(sys.argv[1])
md = d.metadata
files = []
for f in d.files or []:
    p = str(f)
    if ".dist-info/" in p and ("LICEN" in p.upper() or "COPYING" in p.upper()):
        try:
            files.append([p, f.read_text()[:4000]])
        except Exception:
            pass
print(json.dumps({"expr": md.get("License-Expression"), "license": md.get("License"),
                  "classifiers": md.get_all("Classifier") or [], "files": files,
                  "body": md.get_payload() or ""}))
"""


def pypi_licence(python, dist):
    info = json.loads(subprocess.check_output([python, "-c", PY_READ, dist]))
    spdx = normalise(info["expr"])
    if spdx:
        return spdx, "METADATA License-Expression"
    lic = info["license"]
    if lic and len(lic) < 40:
        spdx = normalise(lic)
        if spdx:
            return spdx, "METADATA License"
    for c in info["classifiers"]:
        if c in CLASSIFIERS:
            return CLASSIFIERS[c], "METADATA classifier"
    for path, text in info["files"]:
        spdx = classify(text)
        if spdx:
            return spdx, f"{os.path.basename(path)} in the wheel's dist-info"
    section = licence_section(info["body"])
    spdx = classify(section) if section else None
    if spdx:
        return spdx, "METADATA description, License section"
    if lic:
        spdx = classify(lic)
        if spdx:
            return spdx, "METADATA License text"
    return None, f"no licence in METADATA (expression {info['expr']!r}, License {lic!r})"


def count(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    tools = doc.get("tools") if isinstance(doc, dict) else None
    if not isinstance(tools, list) or not tools:
        sys.exit(f"{path}: no tools")
    for t in tools:
        for key in ("name", "description", "inputSchema"):
            if key not in t:
                sys.exit(f"{path}: tool {t.get('name')!r} has no {key}")
        if not isinstance(t["inputSchema"], dict) or t["inputSchema"].get("type") != "object":
            sys.exit(f"{path}: tool {t['name']!r}: inputSchema is not an object schema")
    print(len(tools))


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "licence":
        if argv[2] == "npm":
            spdx, where = npm_licence(argv[3])
        else:
            spdx, where = pypi_licence(argv[3], argv[4])
        if spdx not in ALLOWED:
            print(f"not accepted: {where}", file=sys.stderr)
            return 1
        print(f"{spdx}\t{where}")
        return 0
    if cmd == "count":
        count(argv[2])
        return 0
    if cmd == "entry":
        entry = {}
        for kv in argv[2:]:
            k, _, v = kv.partition("=")
            entry[k] = int(v) if k == "tools" else v
        print(json.dumps(entry, ensure_ascii=False))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
