import http from 'node:http';

/**
 * The ceiling for any Node proxy here: node:http in, a keep-alive agent out, streaming both ways,
 * no auth, no limits, no framework. UPSTREAM_URL names the target.
 */
const target = new URL(process.env.UPSTREAM_URL ?? 'http://127.0.0.1:8082');
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const server = http.createServer((req, res) => {
  const upstream = http.request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  upstream.on('error', () => {
    res.statusCode = 502;
    res.end();
  });
  req.pipe(upstream);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
