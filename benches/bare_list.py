"""A bare MCP listing over stdio, the floor `toolgate inspect` of a live server is compared to:
spawn the server, `initialize`, `notifications/initialized`, `tools/list` (every page), print
the number of tools, close stdin and leave (the server is killed, not waited for).

    python3 benches/bare_list.py CMD [ARGS...]"""
import json
import os
import subprocess
import sys

proc = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL, start_new_session=True)


def send(msg):
    proc.stdin.write((json.dumps(msg) + "\n").encode())
    proc.stdin.flush()


def reply(want):
    for line in proc.stdout:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if msg.get("id") == want:
            return msg
    sys.exit("the server closed its output")


send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "bare-list", "version": "0"}}})
reply(1)
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
tools, cursor, n = [], None, 2
while True:
    send({"jsonrpc": "2.0", "id": n, "method": "tools/list",
          "params": {"cursor": cursor} if cursor else {}})
    res = reply(n).get("result", {})
    tools += res.get("tools", [])
    cursor, n = res.get("nextCursor"), n + 1
    if not cursor:
        break
print(len(tools))
proc.stdin.close()
os.killpg(proc.pid, 9)
