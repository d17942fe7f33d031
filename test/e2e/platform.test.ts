import { describe, expect, it } from 'vitest';
import { expectError } from './support/accounts.ts';
import { api } from './support/http.ts';

describe('gateway platform routes', () => {
  it('answers GET / with the JSON string "ok"', async () => {
    const res = await api('GET', '/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toBe('ok');
  });

  it('reports liveness and readiness of the whole cluster', async () => {
    expect((await api('GET', '/healthz')).body).toEqual({ status: 'ok' });
    const ready = await api('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });

  it('exposes Prometheus metrics with request timings by route template', async () => {
    await api('GET', '/');
    const res = await api('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(String(res.body)).toMatch(
      /wms_http_request_duration_seconds_count\{method="GET",route="\/",status="200"\} \d+/,
    );
  });

  it('describes the API as OpenAPI 3.1 with every auth and user route', async () => {
    const res = await api('GET', '/openapi.json');
    const doc = res.body as {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const [path, method] of [
      ['/auth/register', 'post'],
      ['/auth/magic-link', 'post'],
      ['/auth/recover', 'post'],
      ['/auth/reset-password', 'post'],
      ['/auth/email-code', 'post'],
      ['/auth/verify-code', 'post'],
      ['/auth/verify-email', 'post'],
      ['/auth/login', 'post'],
      ['/auth/logout', 'post'],
      ['/users/me', 'get'],
      ['/users/me', 'patch'],
      ['/', 'get'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(doc.paths['/auth/register']!.post!.responses['201']).toBeDefined();
    expect(doc.paths['/auth/login']!.post!.responses['429']).toBeDefined();
  });

  it('keeps a well-formed X-Request-Id, replaces others, and puts it in error bodies', async () => {
    const kept = await api('GET', '/nowhere', { headers: { 'X-Request-Id': 'trace-123' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-123');
    expect(expectError(kept, 404, 'not_found').request_id).toBe('trace-123');
    const replaced = await api('GET', '/', { headers: { 'X-Request-Id': 'has spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
  });

  it('answers unknown routes and methods with the error body', async () => {
    expectError(await api('GET', '/definitely/not/here'), 404, 'not_found');
    expectError(await api('DELETE', '/users/me'), 404, 'not_found');
  });
});
