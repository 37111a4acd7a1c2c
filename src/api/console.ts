import fs from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler, Router } from 'express';
import type { Config } from '../config';

/**
 * The console's Content-Security-Policy: scripts, styles and calls only from this origin, no
 * inline script or style, no framing. The built page has none inline (web/vite.config.mts).
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  next();
};

/** Paths the API answers itself; the console never stands in for them. */
const API_PATHS = /^\/(v1|openapi\.json|healthz|readyz|metrics)(\/|$)/;

/**
 * The built console (WEB_DIST_DIR) at `/`: hashed files under /assets/ are cached for a year as
 * immutable; index.html is revalidated on every load, so a new build reaches browsers at once.
 * Every other GET outside the API's paths answers index.html, and the page routes it.
 */
export function consoleRouter(config: Config): Router {
  const dir = config.WEB_DIST_DIR;
  const index = path.join(dir, 'index.html');
  const router = Router();
  router.use((req, res, next) => (API_PATHS.test(req.path) ? next('router') : securityHeaders(req, res, next)));
  router.use('/assets', express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '365d', index: false }), (_req, res) => {
    // A file of an older build: the page that asked for it reloads index.html.
    res.status(404).type('text/plain').send('No such file.');
  });
  router.use(express.static(dir, { index: false, maxAge: 0, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') }));
  router.get(/.*/, (_req, res) => {
    if (!fs.existsSync(index)) {
      res.status(503).type('text/plain').send('The console is not built yet: run `npm run build:web` (npm start does it when it is missing).');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}
