import { Router } from 'express';
import { AppError } from './app-error';
import { sendOk } from './envelope';
import { readOnlyRoute } from './read-only-route';
import type { RouteDoc } from './route-doc';
import type { SchemaObject } from 'ajv';

/** What `/readyz` reports; `ready: false` answers 503 `NOT_READY` with the reason. */
export interface Readiness {
  ready: boolean;
  reason?: string;
  details?: Record<string, unknown>;
}

/** `GET /healthz` (the process answers) and `GET /readyz` (its dependencies are usable). */
export function createHealthRoutes(readiness: () => Readiness | Promise<Readiness>): Router {
  const router = Router();
  readOnlyRoute(router, '/healthz', (_req, res) => sendOk(res, { status: 'alive' }, 'Alive'));
  readOnlyRoute(router, '/readyz', async (_req, res) => {
    const state = await readiness();
    if (!state.ready) {
      throw new AppError('NOT_READY', state.reason ?? 'not ready', { details: state.details });
    }
    sendOk(res, { status: 'ready', ...state.details }, 'Ready');
  });
  return router;
}

/** `GET /healthz` as {@link createHealthRoutes} answers it. */
export const HEALTHZ_ROUTE: RouteDoc = {
  method: 'get',
  path: '/healthz',
  summary: 'Liveness: the process answers',
  data: { type: 'object', additionalProperties: false, required: ['status'], properties: { status: { const: 'alive' } } },
  message: 'Alive',
  // Only a defect could fail it.
  errors: ['INTERNAL'],
};

/** `GET /readyz` as {@link createHealthRoutes} answers it, with the service's own readiness details. */
export function createReadyzRoute(summary: string, details: { required: string[]; properties: Record<string, SchemaObject> }): RouteDoc {
  return {
    method: 'get',
    path: '/readyz',
    summary,
    data: {
      type: 'object',
      additionalProperties: false,
      required: ['status', ...details.required],
      properties: { status: { const: 'ready' }, ...details.properties },
    },
    message: 'Ready',
    errors: ['NOT_READY'],
  };
}
