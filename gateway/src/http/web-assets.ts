import { resolve } from 'node:path';
import express from 'express';
import type { RequestHandler, Response } from 'express';

/**
 * Browser modules the portal and the console share (DOM helpers, the confirm dialog, the usage
 * chart): `gateway/web/`, two levels up from both `src/http/` and `dist/http/`. Each serves them
 * under its own `assets/shared/`, so neither page loads the other's files.
 */
export const SHARED_WEB_ASSETS = resolve(__dirname, '../../web');

/**
 * A folder of a page's assets: revalidated on every use (`no-cache`, with validators), no index
 * pages, and a path that is not there falls through (to a 404 in the envelope).
 */
export function staticAssets(dir: string): RequestHandler {
  return express.static(dir, { index: false, redirect: false, fallthrough: true, maxAge: 0, setHeaders: (res: Response) => res.set('Cache-Control', 'no-cache') });
}
