#!/usr/bin/env python3
"""Start an MCP server over stdio, list its tools (all pages) and print {"tools": [...]}.

Usage: mcp-list-tools.py [--timeout SECONDS] [--stderr FILE] [--cwd DIR] [--redact TEXT=PLACEHOLDER]
                         -- COMMAND [ARG...]

Speaks only initialize, notifications/initialized and tools/list (with cursor paging); it never
calls a tool. Requests the server sends back (ping, roots/list, ...) get a harmless answer.
Lines on the server's stdout that are not JSON (stray logging) are skipped. The tools are
printed as the server sent them (key order kept), indented by two spaces; --redact replaces
TEXT (e.g. a temporary directory a server wrote into a description) with PLACEHOLDER in every
string, and says on stderr how often it did.
Exit status: 0 on success, 1 when the server failed to start, answered with an error or timed out.
"""
import argparse
import json
import os
import queue
import subprocess
import sys
import threading
import time

PROTOCOL = "2025-06-18"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="seconds for the whole exchange (default 60)")
    ap.add_argument("--stderr", default=os.devnull, help="file for the server's stderr")
    ap.add_argument("--cwd", default=None, help="directory to start the server in")
    ap.add_argument("--redact", action="append", default=[], metavar="TEXT=PLACEHOLDER")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not cmd:
        ap.error("no server command")

    with open(args.stderr, "wb") as err:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=err, start_new_session=True, cwd=args.cwd)
    lines = queue.Queue()

    def reader():
        for raw in proc.stdout:
            lines.put(raw)
        lines.put(None)

    threading.Thread(target=reader, daemon=True).start()
    deadline = time.monotonic() + args.timeout

    def send(msg):
        proc.stdin.write((json.dumps(msg) + "\n").encode())
        proc.stdin.flush()

    def wait_for(req_id):
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError("timed out waiting for the server")
            try:
                raw = lines.get(timeout=left)
            except queue.Empty:
                continue
            if raw is None:
                raise RuntimeError(f"server exited (status {proc.poll()}) before answering")
            try:
                msg = json.loads(raw)
            except ValueError:
                continue  # stray logging on stdout
            if not isinstance(msg, dict):
                continue
            if "method" in msg and "id" in msg:  # a request from the server
                if msg["method"] == "roots/list":
                    send({"jsonrpc": "2.0", "id": msg["id"], "result": {"roots": []}})
                elif msg["method"] == "ping":
                    send({"jsonrpc": "2.0", "id": msg["id"], "result": {}})
                else:
                    send({"jsonrpc": "2.0", "id": msg["id"],
                          "error": {"code": -32601, "message": "method not found"}})
                continue
            if msg.get("id") != req_id:
                continue  # a notification, or an answer we do not wait for
            if "error" in msg:
                raise RuntimeError(f"server error: {json.dumps(msg['error'])}")
            return msg.get("result", {})

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": PROTOCOL, "capabilities": {},
            "clientInfo": {"name": "toolgate-capture", "version": "1"}}})
        init = wait_for(1)
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        tools, cursor, req_id, seen = [], None, 2, set()
        while True:
            params = {"cursor": cursor} if cursor else {}
            send({"jsonrpc": "2.0", "id": req_id, "method": "tools/list", "params": params})
            page = wait_for(req_id)
            req_id += 1
            tools.extend(page.get("tools", []))
            cursor = page.get("nextCursor")
            if not cursor or cursor in seen:
                break
            seen.add(cursor)
        redactions = [r.split("=", 1) for r in args.redact]
        hits = [0]

        def redact(v):
            if isinstance(v, str):
                for text, placeholder in redactions:
                    if text and text in v:
                        hits[0] += v.count(text)
                        v = v.replace(text, placeholder)
                return v
            if isinstance(v, list):
                return [redact(x) for x in v]
            if isinstance(v, dict):
                return {redact(k): redact(x) for k, x in v.items()}
            return v

        tools = redact(tools)
        info = init.get("serverInfo", {})
        print(f"{info.get('name', '?')} {info.get('version', '?')}: {len(tools)} tools",
              file=sys.stderr)
        if hits[0]:
            print(f"redacted {hits[0]} occurrence(s)", file=sys.stderr)
        json.dump({"tools": tools}, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    except (RuntimeError, BrokenPipeError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    finally:
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, 15)
                proc.wait(timeout=3)
            except (subprocess.TimeoutExpired, ProcessLookupError):
                os.killpg(proc.pid, 9)


if __name__ == "__main__":
    sys.exit(main())
