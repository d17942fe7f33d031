import { collectNodeMetrics } from '@wms/kit/metrics';
import { Counter, Histogram, Registry } from 'prom-client';

/** The gateway's Prometheus registry: process metrics, one request histogram by route template, stray errors. */
export function createMetrics() {
  const registry = new Registry();
  collectNodeMetrics(registry);
  const requests = new Histogram({
    name: 'wms_http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const strayErrors = new Counter({
    name: 'wms_stray_errors_total',
    help: 'Errors nothing handled, which the process survived (each one is a bug; see the error log)',
    registers: [registry],
  });
  return { registry, requests, strayErrors };
}

export type Metrics = ReturnType<typeof createMetrics>;
