"""Planted look-alike catalogs at scale (issue 40 point 9), for recall and CPU per size.

    python3 benches/lookalike_scale.py --tools 20000 [--seed 5] --out /tmp/la/la-20000

A gateway of companies, each offering the ten services of benches/lookalike_gen.py under its
own prefix (`acme_billing_get_invoice`), so at scale every word is common: each verb, noun,
service and company word is shared by hundreds of tools. Into every company's copy the 24
planted twins of lookalike_gen.py are placed (`acme_billing_fetch_invoice` beside
`acme_billing_get_invoice`), replacing template tools so the size holds. Writes OUT.json (a
tools/list snapshot) and OUT.labels.json (the planted pairs, the same shape as
fixtures/lookalike/*.labels.json).
"""
import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lookalike_gen as g  # noqa: E402

COMPANIES = """acme globex initech umbrella hooli stark wayne wonka tyrell cyberdyne soylent
oscorp vandelay pied gringotts monarch nakatomi massive dunder sterling bluth prestige
virtucon gekko axiom zenith apex nimbus quantum vertex orbit summit harbor beacon cobalt
ember falcon granite helix indigo juniper krypton lumen magnet nova onyx pixel quartz
raven sable titan ultra velvet willow xenon yonder zephyr amber birch cedar delta echo
fjord glacier hazel iris jade kestrel lotus maple nectar opal pine quill reef sage thorn
""".split()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tools", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    verbs = {v[0]: v for v in g.VERBS}
    per_copy = sum(len(o) for o in g.SERVICES.values()) * len(g.VERBS)
    copies = max(1, args.tools // per_copy)
    if copies > len(COMPANIES):
        sys.exit("at most %d tools" % (len(COMPANIES) * per_copy))
    tools, pairs = [], []
    for company in COMPANIES[:copies]:
        mine = []
        for svc, objs in g.SERVICES.items():
            for obj in objs:
                for verb, takes_plural, phrasings in g.VERBS:
                    desc = rng.choice(phrasings).format(svc="%s %s" % (company, svc), obj=obj,
                                                       objs=g.plural(obj))
                    props = {"id": {"type": "string", "description": "Id of the %s" % obj}}
                    if takes_plural:
                        props = {"page": {"type": "integer", "description": "Page number, from 1"}}
                    mine.append({"name": company + "_" + g.template_name(svc, verb, takes_plural, obj),
                                 "description": desc,
                                 "inputSchema": {"type": "object", "properties": props}})
        by_name = {t["name"]: i for i, t in enumerate(mine)}
        keep = set()
        twins = []
        for kind, svc, verb, obj, twin, desc in g.PLANTED:
            original = company + "_" + g.template_name(svc, verb, verbs[verb][1], obj)
            keep.add(original)
            twins.append({"name": company + "_" + twin,
                          "description": desc.format(svc="%s %s" % (company, svc)),
                          "inputSchema": mine[by_name[original]]["inputSchema"]})
            pairs.append({"pair": [original, company + "_" + twin], "kind": kind})
        droppable = [t["name"] for t in mine if t["name"] not in keep]
        drop = set(rng.sample(droppable, len(twins)))
        tools.extend(t for t in mine if t["name"] not in drop)
        tools.extend(twins)
    rng.shuffle(tools)
    with open(args.out + ".json", "w") as f:
        json.dump({"tools": tools}, f)
        f.write("\n")
    with open(args.out + ".labels.json", "w") as f:
        json.dump({"source": "benches/lookalike_scale.py --tools %d --seed %d" % (args.tools, args.seed),
                   "lookalikes": pairs, "disambiguated": []}, f, indent=1)
        f.write("\n")
    print("%d tools, %d planted pairs -> %s.json" % (len(tools), len(pairs), args.out))


if __name__ == "__main__":
    main()
