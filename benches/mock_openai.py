"""A mock OpenAI chat-completions server that answers every request after a fixed delay
(default 200 ms), for the LLM concurrency benchmark:
    python3 benches/mock_openai.py PORT [DELAY_MS] [SLOTS]
SLOTS (default: unlimited) is how many requests it serves at once; the rest wait in line, as
on a local runtime that serves one request at a time. `GET /calls` returns how many chat
requests it has received; `POST /calls/reset` sets that back to zero."""
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DELAY = (int(sys.argv[2]) if len(sys.argv) > 2 else 200) / 1000.0
SLOTS = threading.Semaphore(int(sys.argv[3])) if len(sys.argv) > 3 else None
REPLY = json.dumps({"model": "mock", "choices": [{"message": {"role": "assistant", "content": None,
        "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "book_room", "arguments": "{\"room\": \"Vega\"}"}}]}}]}).encode()
CALLS = [0]
LOCK = threading.Lock()


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def send(self, body):
        # Headers and body in one write: two small writes meet Nagle's algorithm and the
        # client's delayed ACK and add ~40 ms that belong to the mock, not to toolgate.
        head = ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)).encode()
        self.wfile.write(head + body)

    def do_GET(self):
        with LOCK:
            n = CALLS[0]
        self.send(json.dumps({"calls": n}).encode())

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path.startswith("/calls"):
            with LOCK:
                CALLS[0] = 0
            self.send(b"{}")
            return
        with LOCK:
            CALLS[0] += 1
        if SLOTS is not None:
            with SLOTS:
                time.sleep(DELAY)
        else:
            time.sleep(DELAY)
        self.send(REPLY)


ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer.request_queue_size = 128
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
