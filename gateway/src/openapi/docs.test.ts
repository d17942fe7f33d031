import { describe, expect, it } from 'vitest';
import type { Route, RouteInput } from '../routes/route.ts';
import { systemRoutes } from '../routes/system.routes.ts';

const routes = systemRoutes({ metrics: {} as never, notReady: async () => [], openapi: () => ({}) });

/** Runs a route's handler against a response that records what it was sent. */
async function serve(path: string) {
  const r = routes.find((x) => x.path === path) as Route;
  const headers: Record<string, string> = {};
  let body: string | Buffer = '';
  const res = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    type(type: string) {
      headers['content-type'] = type;
      return res;
    },
    send(sent: string | Buffer) {
      body = sent;
      return res;
    },
  };
  await r.handle({ res } as unknown as RouteInput<unknown, unknown, unknown>);
  return { headers, body: String(body) };
}

describe('GET /docs', () => {
  it('serves a page that renders /openapi.json with the bundled renderer and loads nothing from elsewhere', async () => {
    const page = await serve('/docs');
    expect(page.headers['content-type']).toBe('html');
    expect(page.body).toContain('data-url="/openapi.json"');
    expect(page.body).toContain('<script src="/docs/scalar.js"></script>');
    expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it("serves Scalar's standalone bundle from the gateway's own dependencies", async () => {
    const script = await serve('/docs/scalar.js');
    expect(script.headers['content-type']).toBe('text/javascript');
    expect(script.body.length).toBeGreaterThan(1_000_000);
    expect(script.body).toContain('createApiReference');
  });
});
