import type { RequestListener } from 'node:http';
import type { Context } from '../core/context';
import { handlePageRequest } from '../pages/handle-page-request';
import { handleApiRequest } from './handle-api-request';
import type { ApiDeps } from './handle-api-request';
import { errorAnswer, jsonAnswer, sendAnswer } from './send-answer';

/**
 * The server's one request listener: `/v1/…` is the API, a few other paths are hosted pages.
 * `beforeAnswer` runs once a request has done its work and before its answer leaves (the state file
 * is written there, so what was answered is kept).
 */
export function createRequestListener(ctx: Context, api: ApiDeps, beforeAnswer: () => void = () => undefined): RequestListener {
  return (req, res) => {
    const answer = (async () => {
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://stripe-local');
      } catch {
        return jsonAnswer(400, { error: { type: 'invalid_request_error', message: 'The request URL cannot be parsed.' } });
      }
      if (url.pathname === '/v1' || url.pathname.startsWith('/v1/')) return handleApiRequest(api, req, url);
      api.catchUp();
      const shown = await handlePageRequest(ctx, req, url);
      return (
        shown ??
        jsonAnswer(404, {
          error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method ?? 'GET'}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.` },
        })
      );
    })();
    answer.then(
      (done) => {
        beforeAnswer();
        sendAnswer(res, done);
      },
      (error: unknown) => {
        beforeAnswer();
        sendAnswer(res, errorAnswer(error, ctx.settings.log));
      },
    );
  };
}
