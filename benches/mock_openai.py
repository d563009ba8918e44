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
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(REPLY)))
        self.end_headers()
        self.wfile.write(REPLY)


ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
