import type { IncomingMessage } from 'node:http';
import { API_VERSION } from '../api-version';
import type { Context } from '../core/context';
import { createId } from '../core/create-id';
import { expand } from '../core/expand';
import { Params } from '../core/params';
import { present } from '../core/present';
import { matchRoute } from './api-route';
import type { ApiRoute } from './api-route';
import { authenticate } from './authenticate';
import type { IdempotencyStore } from './idempotency-store';
import { parseForm } from './parse-form';
import { readBody } from './read-body';
import { errorAnswer, jsonAnswer } from './send-answer';
import type { Answer } from './send-answer';
import { invalidRequest, StripeError } from './stripe-error';

/** What the REST API needs besides the request. */
export interface ApiDeps {
  ctx: Context;
  routes: readonly ApiRoute[];
  idempotency: IdempotencyStore;
  /** Brings the wall-clock world up to date (renewals, retries) before a request reads it. */
  catchUp: () => void;
}

/**
 * Answers one `/v1/…` request as Stripe does: authentication, the form body, idempotent replay
 * of POSTs, the endpoint, `expand[]`; every failure is Stripe's error object.
 */
export async function handleApiRequest(deps: ApiDeps, req: IncomingMessage, url: URL): Promise<Answer> {
  const requestId = createId('req_', 14);
  const headers: Record<string, string> = { 'Request-Id': requestId, 'Stripe-Version': header(req, 'stripe-version') ?? API_VERSION };
  let answer: Answer;
  try {
    answer = await answerRequest(deps, req, url, requestId);
  } catch (error) {
    answer = errorAnswer(error, deps.ctx.settings.log);
  }
  return { ...answer, headers: { ...answer.headers, ...headers } };
}

async function answerRequest(deps: ApiDeps, req: IncomingMessage, url: URL, requestId: string): Promise<Answer> {
  const apiKey = authenticate(header(req, 'authorization'));
  const method = req.method ?? 'GET';
  const body = method === 'POST' || method === 'PUT' || method === 'PATCH' ? await readBody(req) : '';
  const match = matchRoute(deps.routes, method, url.pathname);
  if (!match) {
    throw new StripeError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    });
  }
  const contentType = (header(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (body && contentType !== 'application/x-www-form-urlencoded') {
    throw invalidRequest(`Invalid request: unsupported Content-Type ${contentType || '(none)'}. Send application/x-www-form-urlencoded.`);
  }
  const key = method === 'POST' ? header(req, 'idempotency-key') : undefined;
  const endpoint = `${method} ${url.pathname}`;
  if (key !== undefined) {
    const saved = deps.idempotency.replay(apiKey, key, endpoint, body);
    if (saved) {
      return { status: saved.status, body: saved.body, headers: { 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true', 'Original-Request': saved.requestId, 'Idempotency-Key': key } };
    }
  }
  let answer: Answer;
  try {
    const params = new Params(parseForm(method === 'POST' ? body : url.search.slice(1)));
    const paths = params.strings('expand');
    deps.catchUp();
    const result = match.route.handler({ params, path: match.path, request: { id: requestId, idempotency_key: key ?? null } });
    answer = jsonAnswer(200, expand(deps.ctx.store, present(deps.ctx.store, result), paths));
  } catch (error) {
    answer = errorAnswer(error, deps.ctx.settings.log);
  }
  if (key !== undefined) {
    deps.idempotency.save(apiKey, key, endpoint, body, { status: answer.status, body: String(answer.body), requestId });
    answer.headers = { ...answer.headers, 'Idempotency-Key': key };
  }
  return answer;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
