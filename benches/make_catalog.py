"""Writes a deterministic synthetic MCP catalog of N tools (a gateway aggregating many services),
for the BM25 and lint benchmarks:  python3 benches/make_catalog.py N OUT.json"""
import json
import random
import sys

n, out = int(sys.argv[1]), sys.argv[2]
rng = random.Random(42)
services = ["jira", "github", "slack", "stripe", "notion", "gmail", "drive", "zendesk", "hubspot", "linear"]
verbs = ["get", "list", "create", "update", "delete", "search", "export", "sync", "archive", "share"]
nouns = ["invoice", "customer", "ticket", "order", "refund", "calendar", "event", "file", "folder", "user",
         "team", "project", "report", "payment", "subscription", "comment", "label", "webhook", "token", "note"]
words = ["account", "record", "status", "history", "owner", "region", "window", "amount", "currency", "date",
         "range", "filter", "page", "limit", "summary", "detail", "version", "draft", "approval", "priority"]
tools = []
for i in range(n):
    svc = "%s%d" % (services[(i // 20) % len(services)], i // 200)
    verb, noun = verbs[i % len(verbs)], nouns[(i // 2 + (i // 20) * 7) % len(nouns)]
    w = rng.sample(words, 6)
    props = {x: {"type": "string", "description": "The %s of the %s." % (x, noun)} for x in w[2:5]}
    tools.append({
        "name": "%s_%s_%s" % (svc, verb, noun),
        "description": "%s a %s in the %s workspace by %s and %s. Use this when the user asks about %s %s." % (
            verb.capitalize(), noun, svc, w[0], w[1], svc, noun),
        "inputSchema": {"type": "object", "properties": props, "required": [w[2]]},
    })
json.dump({"tools": tools}, open(out, "w"), indent=1)
