import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Response, Router } from 'express';
import { sendError } from './middleware/errors.ts';

/** Where `pnpm build:web` writes the reference web client (web/dist). */
export const WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/**
 * The app loads this gateway's own scripts and styles only (no inline script or style, nothing from elsewhere), talks
 * to this gateway alone (its API and its realtime websocket), and cannot be framed.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function securityHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

/**
 * The reference web client at /app/: its built files (hashed names, cached for a year), and its index.html for every
 * other path under /app/ (the app reads the path itself), never cached. Without a build, /app/ says how to make one.
 */
export function webApp(dir = WEB_DIST): Router {
  // Strict: /app and /app/ are two paths (the first redirects to the second).
  const router = Router({ strict: true });
  const index = join(dir, 'index.html');
  router.get('/app', (_req, res) => res.redirect(301, '/app/'));
  router.use(
    '/app/assets',
    express.static(join(dir, 'assets'), {
      index: false,
      immutable: true,
      maxAge: '365d',
      setHeaders: securityHeaders,
    }),
    (_req, res) => sendError(res, 404, 'not_found', 'No such file of the web client.'),
  );
  router.get('/app/{*path}', (_req, res) => {
    securityHeaders(res);
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index, (err) => {
      if (err && !res.headersSent)
        sendError(res, 404, 'not_found', 'The web client is not built here: run `pnpm build:web`.');
    });
  });
  return router;
}
