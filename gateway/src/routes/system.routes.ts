import { unavailable } from '@wms/kit/errors';
import { z } from 'zod';
import type { Metrics } from '../metrics.ts';
import { route } from './route.ts';

export interface SystemDeps {
  metrics: Metrics;
  /** Is every dependency answering? Names of those that are not. */
  notReady(): Promise<string[]>;
  openapi(): unknown;
}

/** Health (spec), liveness, readiness, metrics and the API description (contract §8). */
export const systemRoutes = ({ metrics, notReady, openapi }: SystemDeps) => [
  route({
    method: 'get', path: '/', tag: 'Health', summary: 'Health: answers "ok"', auth: 'none', status: 200, response: z.literal('ok'),
    handle: async () => 'ok',
  }),
  route({
    method: 'get', path: '/healthz', tag: 'Health', summary: 'Liveness: the process answers', auth: 'none', status: 200,
    response: z.object({ status: z.literal('ok') }),
    handle: async () => ({ status: 'ok' }),
  }),
  route({
    method: 'get', path: '/readyz', tag: 'Health', summary: 'Readiness: every downstream service and Redis answer (503 otherwise)', auth: 'none',
    status: 200, response: z.object({ status: z.literal('ready') }), errors: [503],
    handle: async () => {
      const down = await notReady();
      if (down.length > 0) throw unavailable(`Not ready: ${down.join(', ')}.`);
      return { status: 'ready' };
    },
  }),
  route({
    method: 'get', path: '/metrics', tag: 'Health', summary: 'Prometheus metrics', auth: 'none', status: 200,
    handle: async ({ res }) => {
      res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    },
  }),
  route({
    method: 'get', path: '/openapi.json', tag: 'Health', summary: 'This API as an OpenAPI 3.1 document', auth: 'none', status: 200,
    handle: async () => openapi(),
  }),
];
