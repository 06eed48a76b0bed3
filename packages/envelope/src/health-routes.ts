import { Router } from 'express';
import { AppError } from './app-error';
import { sendOk } from './envelope';

/** What `/readyz` reports; `ready: false` answers 503 `NOT_READY` with the reason. */
export interface Readiness {
  ready: boolean;
  reason?: string;
  details?: Record<string, unknown>;
}

/** `GET /healthz` (the process answers) and `GET /readyz` (its dependencies are usable). */
export function createHealthRoutes(readiness: () => Readiness | Promise<Readiness>): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => sendOk(res, { status: 'alive' }, 'Alive'));
  router.get('/readyz', async (_req, res) => {
    const state = await readiness();
    if (!state.ready) {
      throw new AppError('NOT_READY', state.reason ?? 'not ready', { details: state.details });
    }
    sendOk(res, { status: 'ready', ...state.details }, 'Ready');
  });
  return router;
}
