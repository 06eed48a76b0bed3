import http from 'node:http';

/** The trivial upstream: a small fixed JSON answer, keep-alive friendly. Run as its own process. */
const body = JSON.stringify({ data: { price: 1234.56, symbol: 'ETH' }, status: 'ok', success: true });
const server = http.createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
