#!/usr/bin/env python3
"""gatt2mqtt test fixture: the one call of Home Assistant's Supervisor API that the add-on makes.

GET /services/mqtt with ``Authorization: Bearer TOKEN`` answers as the Supervisor does when a broker add-on
provides the mqtt service: ``{"result": "ok", "data": {"host", "port", "ssl", "protocol", "username", "password"}}``.
A missing or wrong token gets 401, any other path 404, both as the Supervisor's ``{"result": "error", ...}``.
Listens on 127.0.0.1 and a free port, and prints ``supervisor-standin: listening on PORT`` once it does.

    supervisor_standin.py --token TOKEN --mqtt '{"host": "127.0.0.1", "port": 1883, ...}'
"""
import argparse, http.server, json, sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--token", required=True)
    parser.add_argument("--mqtt", required=True, help="the data of the mqtt service, as JSON")
    arguments = parser.parse_args()
    service = json.loads(arguments.mqtt)

    class Supervisor(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.headers.get("Authorization") != f"Bearer {arguments.token}":
                self.answer(401, {"result": "error", "message": "Unauthorized"})
            elif self.path == "/services/mqtt":
                self.answer(200, {"result": "ok", "data": service})
            else:
                self.answer(404, {"result": "error", "message": f"no {self.path}"})

        def answer(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format, *args):
            print("supervisor-standin:", format % args, flush=True)

    server = http.server.HTTPServer(("127.0.0.1", 0), Supervisor)
    print(f"supervisor-standin: listening on {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
