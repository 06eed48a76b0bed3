import type { RequestListener } from 'node:http';
import type { Context } from '../core/context';
import { handlePageRequest } from '../pages/handle-page-request';
import { handleApiRequest } from './handle-api-request';
import type { ApiDeps } from './handle-api-request';
import { errorAnswer, jsonAnswer, sendAnswer } from './send-answer';

/** The server's one request listener: `/v1/…` is the API, a few other paths are hosted pages. */
export function createRequestListener(ctx: Context, api: ApiDeps): RequestListener {
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
      (done) => sendAnswer(res, done),
      (error: unknown) => sendAnswer(res, errorAnswer(error, ctx.settings.log)),
    );
  };
}
