"""A fourth API from another stack: a weather service in a few lines of Python (http.server), with
its own OpenAPI document, put on sale through the catalogue file alone (portal/fourth-api.test.ts).
Prints the port on the first line of standard output."""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CITIES = {'oslo': 4.5, 'lima': 19.0}
OPENAPI = {
    'openapi': '3.1.0',
    'info': {'title': 'Weather', 'version': '1'},
    'paths': {
        '/v1/cities': {'get': {'operationId': 'cities', 'summary': 'The cities forecast here', 'responses': {'200': {'description': 'The cities'}}}},
        '/v1/forecast/{city}': {'get': {
            'operationId': 'forecast', 'summary': 'Tomorrow’s temperature in a city',
            'parameters': [{'name': 'city', 'in': 'path', 'required': True, 'schema': {'type': 'string', 'enum': sorted(CITIES)}}],
            'responses': {'200': {'description': 'The forecast'}, '404': {'description': 'No such city'}}}},
    },
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def log_message(self, *args):
        pass

    def send_json(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path = self.path.split('?')[0]
        city = path[len('/v1/forecast/'):] if path.startswith('/v1/forecast/') else None
        if path == '/v1/openapi.json':
            self.send_json(200, OPENAPI)
        elif path == '/readyz':
            self.send_json(200, {'status': 'ready'})
        elif path == '/v1/cities':
            self.send_json(200, {'data': sorted(CITIES), 'plan': self.headers.get('x-tollgate-plan')})
        elif city in CITIES:
            self.send_json(200, {'data': {'city': city, 'celsius': CITIES[city]}})
        else:
            self.send_json(404, {'error': 'NOT_FOUND', 'message': 'no such city'})


server = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
print(server.server_address[1], flush=True)
sys.stdout.close()
server.serve_forever()
