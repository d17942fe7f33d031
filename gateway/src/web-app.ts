import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Response, Router } from 'express';
import { sendError } from './middleware/errors.ts';

/** Where `pnpm build:web` writes the reference web client (web/dist). */
export const WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url));

export interface WebAppOptions {
  /**
   * Origins besides the gateway's own that attachment previews load from: S3's, whose presigned download URLs point
   * at it. The filesystem driver's downloads are the gateway's own `/storage/` and need none.
   */
  imageOrigins?: readonly string[];
  /**
   * Origins besides the gateway's own that the app connects to: Pusher's hosted service (`wss://*.pusher.com`), which
   * clients reach directly. A self-hosted provider is reached through the gateway and needs none.
   */
  connectOrigins?: readonly string[];
}

/**
 * The app loads this gateway's own scripts and styles only (no inline script or style, nothing from elsewhere), talks
 * to this gateway alone (its API and its realtime websocket; with Pusher's hosted service, that service too), and
 * cannot be framed; images may also come from the storage's origin (`imageOrigins`), and only images.
 */
export function contentSecurityPolicy({ imageOrigins = [], connectOrigins = [] }: WebAppOptions = {}): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    ["img-src 'self' data: blob:", ...imageOrigins].join(' '),
    ["connect-src 'self'", ...connectOrigins].join(' '),
    "font-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The origins S3's presigned download URLs use: the endpoint's (path style, as MinIO answers), and on AWS also its
 * subdomains (AWS presigns in virtual-host style, `https://<bucket>.s3.<region>.amazonaws.com/…`).
 */
export function s3ImageOrigins(endpoint: string): string[] {
  const url = new URL(endpoint);
  return url.hostname.endsWith('.amazonaws.com') ? [url.origin, `${url.protocol}//*.${url.host}`] : [url.origin];
}

const securityHeaders = (policy: string) => (res: Response) => {
  res.setHeader('Content-Security-Policy', policy);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
};

/**
 * The reference web client at /app/: its built files (hashed names, cached for a year), and its index.html for every
 * other path under /app/ (the app reads the path itself), never cached. Without a build, /app/ says how to make one.
 */
export function webApp(dir = WEB_DIST, options: WebAppOptions = {}): Router {
  const setHeaders = securityHeaders(contentSecurityPolicy(options));
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
      setHeaders,
    }),
    (_req, res) => sendError(res, 404, 'not_found', 'No such file of the web client.'),
  );
  router.get('/app/{*path}', (_req, res) => {
    setHeaders(res);
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index, (err) => {
      if (err && !res.headersSent)
        sendError(res, 404, 'not_found', 'The web client is not built here: run `pnpm build:web`.');
    });
  });
  return router;
}
