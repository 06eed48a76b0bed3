"""A Tollgate service stand-in written with Python's http.server: not a Node server, so the gateway's
hop-by-hop handling and connection reuse are tested against another stack's HTTP/1.1 behaviour
(it closes a connection whose request says `Connection: close`).

Routes: /v1/openapi.json (documents the routes below), /v1/echo (the request as JSON),
/v1/hop (an answer carrying hop-by-hop headers), /v1/status/<n> (status n), /v1/drop (headers and
part of the body, then the connection is dropped), /v1/drip (12 bytes, one every 0.3 s),
/v1/silent (never answers).
Prints the port on the first line of standard output."""
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROUTES = ['/v1/echo', '/v1/hop', '/v1/drop', '/v1/silent', '/v1/drip'] + ['/v1/status/%d' % n for n in (200, 404, 500, 502, 503)]


class Handler(BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def log_message(self, *args):
        pass

    def send_json(self, status, body, extra=()):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(data)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        if self.command != 'HEAD':
            self.wfile.write(data)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        path = self.path.split('?')[0]
        if path == '/v1/openapi.json':
            self.send_json(200, {'openapi': '3.1.0', 'info': {'title': 'python', 'version': '1'}, 'paths': {r: {'get': {}} for r in ROUTES}})
        elif path == '/v1/echo':
            self.send_json(200, {'method': self.command, 'url': self.path, 'headers': {k.lower(): v for k, v in self.headers.items()}})
        elif path == '/v1/hop':
            self.send_json(200, {'ok': True}, [('Connection', 'X-Secret'), ('X-Secret', 'hop'), ('Keep-Alive', 'timeout=5'), ('Upgrade', 'h2c'), ('Proxy-Authenticate', 'Basic'), ('Trailer', 'X-Checksum')])
        elif path.startswith('/v1/status/'):
            self.send_json(int(path.rsplit('/', 1)[1]), {'status': 'from python'})
        elif path == '/v1/drop':
            self.send_response(200)
            self.send_header('Content-Type', 'application/json')
            self.send_header('Content-Length', '1000')
            self.end_headers()
            self.wfile.write(b'{"partial": "')
            self.wfile.flush()
            time.sleep(0.05)
            self.close_connection = True
            self.connection.shutdown(2)
        elif path == '/v1/drip':
            self.send_response(200)
            self.send_header('Content-Type', 'text/plain')
            self.send_header('Content-Length', '12')
            self.end_headers()
            for _ in range(12):
                self.wfile.write(b'.')
                self.wfile.flush()
                time.sleep(0.3)
        elif path == '/v1/silent':
            time.sleep(30)
        else:
            self.send_json(404, {'error': 'no route'})


server = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
