"""A mock OpenAI chat-completions server that answers every request after a fixed delay
(default 200 ms), for the LLM concurrency benchmark:
    python3 benches/mock_openai.py PORT [DELAY_MS]"""
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DELAY = (int(sys.argv[2]) if len(sys.argv) > 2 else 200) / 1000.0
REPLY = json.dumps({"model": "mock", "choices": [{"message": {"role": "assistant", "content": None,
        "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "book_room", "arguments": "{\"room\": \"Vega\"}"}}]}}]}).encode()


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        time.sleep(DELAY)
        # Headers and body in one write: two small writes meet Nagle's algorithm and the
        # client's delayed ACK and add ~40 ms that belong to the mock, not to toolgate.
        head = ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(REPLY)).encode()
        self.wfile.write(head + REPLY)


ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer.request_queue_size = 64
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
