import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { unavailable } from '@wms/kit/errors';
import { z } from 'zod';
import type { Metrics } from '../metrics.ts';
import { route } from './route.ts';

export interface SystemDeps {
  metrics: Metrics;
  /** Is every dependency answering? Names of those that are not. */
  notReady: () => Promise<string[]>;
  openapi: () => unknown;
}

/** Health (spec), liveness, readiness, metrics and the API description (contract §8). */
export const systemRoutes = ({ metrics, notReady, openapi }: SystemDeps) => [
  route({
    method: 'get',
    path: '/',
    tag: 'Health',
    summary: 'Health: answers "ok"',
    auth: 'none',
    tokens: 'none',
    status: 200,
    response: z.literal('ok'),
    handle: async () => 'ok' as const,
  }),
  route({
    method: 'get',
    path: '/healthz',
    tag: 'Health',
    summary: 'Liveness: the process answers',
    auth: 'none',
    tokens: 'none',
    status: 200,
    response: z.object({ status: z.literal('ok') }),
    handle: async () => ({ status: 'ok' as const }),
  }),
  route({
    method: 'get',
    path: '/readyz',
    tag: 'Health',
    summary: 'Readiness: every downstream service and Redis answer (503 otherwise)',
    auth: 'none',
    tokens: 'none',
    status: 200,
    response: z.object({ status: z.literal('ready') }),
    errors: [503],
    handle: async () => {
      const down = await notReady();
      if (down.length > 0) throw unavailable(`Not ready: ${down.join(', ')}.`);
      return { status: 'ready' as const };
    },
  }),
  route({
    method: 'get',
    path: '/metrics',
    tag: 'Health',
    summary: 'Prometheus metrics',
    auth: 'none',
    tokens: 'none',
    status: 200,
    handle: async ({ res }) => {
      res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    },
  }),
  route({
    method: 'get',
    path: '/openapi.json',
    tag: 'Health',
    summary: 'This API as an OpenAPI 3.1 document',
    auth: 'none',
    tokens: 'none',
    status: 200,
    handle: async ({ res }) => {
      res.json(openapi());
    },
  }),
  route({
    method: 'get',
    path: '/docs',
    tag: 'Health',
    summary: 'A readable reference of this API (Scalar, served by the gateway itself)',
    auth: 'none',
    tokens: 'none',
    status: 200,
    handle: async ({ res }) => {
      setDocsHeaders(res);
      res.type('html').send(DOCS_PAGE);
    },
  }),
  route({
    method: 'get',
    path: '/docs/scalar.js',
    tag: 'Health',
    summary: 'The reference renderer of /docs (@scalar/api-reference)',
    auth: 'none',
    tokens: 'none',
    status: 200,
    handle: async ({ res }) => {
      setDocsHeaders(res);
      res.setHeader('Cache-Control', 'public, max-age=3600');
      scalarBundle ??= readFile(
        join(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser', 'standalone.js'),
      );
      res.type('text/javascript').send(await scalarBundle);
    },
  }),
];

// Read on first use: 4 MB that most gateways never serve.
let scalarBundle: Promise<Buffer> | undefined;

const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>wms API reference</title>
  </head>
  <body>
    <script id="api-reference" data-url="/openapi.json" data-configuration='{"withDefaultFonts":false}'></script>
    <script src="/docs/scalar.js"></script>
  </body>
</html>
`;

// Security: the page loads nothing but this gateway's own files (no CDN, no fonts or telemetry from elsewhere);
// Scalar injects its styles at run time, hence the inline styles.
function setDocsHeaders(res: { setHeader(name: string, value: string): unknown }) {
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  );
  res.setHeader('X-Content-Type-Options', 'nosniff');
}
