import http from 'node:http';

/** The trivial upstream: a small fixed JSON answer, keep-alive friendly. Run as its own process. */
const body = JSON.stringify({ data: { price: 1234.56, symbol: 'ETH' }, status: 'ok', success: true });
// Its own OpenAPI document, as a Tollgate service serves it: the gateway checks every call's path
// against it, so the bench measures that check too.
const document = JSON.stringify({ openapi: '3.1.0', info: { title: 'bench', version: '1' }, paths: { '/v1/prices': { get: {} } } });
const server = http.createServer((req, res) => {
  req.resume();
  const answer = req.url === '/v1/openapi.json' ? document : body;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
  res.end(answer);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
