import http from 'node:http';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { RedisReply } from 'rate-limit-redis';
import Redis from 'ioredis';
import { createProxyMiddleware } from 'http-proxy-middleware';

/**
 * The common way to build this: express-rate-limit with rate-limit-redis for a per-second and a
 * monthly limit (one EVALSHA each), keyed by the API key header, then http-proxy-middleware with
 * the same keep-alive agent the gateway uses. No key check, no subscriptions, no refunds.
 */
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const store = (prefix: string) =>
  new RedisStore({ prefix, sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply> });
const byKey = (req: express.Request) => String(req.headers['x-tollgate-key'] ?? 'anonymous');

const app = express();
app.use(
  rateLimit({ windowMs: 1000, limit: 1_000, keyGenerator: byKey, store: store('rl:sec:'), standardHeaders: 'draft-8', legacyHeaders: false, validate: false }),
  rateLimit({ windowMs: 30 * 86_400_000, limit: 1_000_000_000, keyGenerator: byKey, store: store('rl:month:'), standardHeaders: 'draft-8', legacyHeaders: false, validate: false }),
  createProxyMiddleware({ target: process.env.UPSTREAM_URL, changeOrigin: true, agent: new http.Agent({ keepAlive: true, maxSockets: 256 }) }),
);
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () => server.close(() => void redis.quit().then(() => process.exit(0))));
