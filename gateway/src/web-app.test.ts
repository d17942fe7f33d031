import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ImageOrigins, webApp } from './web-app.ts';

// The web client's files at /app/, from a build made here (web/dist's layout), and the answer without a build.

let dir: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wms-web-'));
  await mkdir(join(dir, 'built', 'assets'), { recursive: true });
  await writeFile(join(dir, 'built', 'index.html'), '<!doctype html><div id="root"></div>');
  await writeFile(join(dir, 'built', 'assets', 'index-abc.js'), 'console.log(1)');
  const app = express();
  app.use(webApp(join(dir, 'built')));
  app.use('/unbuilt', webApp(join(dir, 'none')));
  app.use('/s3', webApp(join(dir, 'built'), { imageOrigins: ['https://s3.example.org'] }));
  app.use('/hosted', webApp(join(dir, 'built'), { connectOrigins: ['wss://*.pusher.com'] }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const get = (path: string) => fetch(`${base}${path}`, { redirect: 'manual' });

/** The policy's directives by name, each with its sources. */
const directives = (res: Response) =>
  Object.fromEntries(
    res.headers
      .get('content-security-policy')!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  );

describe('the web client at /app/', () => {
  it('serves index.html for /app/ and every path under it, never cached, with a CSP that allows no inline script', async () => {
    for (const path of ['/app/', '/app/conversations/x', '/app/a/b?c=d']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
    }
    const bare = await get('/app');
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/app/');
  });

  it('serves built files for a year and answers a missing one 404 not_found, not index.html', async () => {
    const js = await get('/app/assets/index-abc.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect(await js.text()).toBe('console.log(1)');
    const missing = await get('/app/assets/nope.js');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it("loads images from the gateway itself (fs storage's /storage/ downloads), data: and blob: only", async () => {
    for (const path of ['/app/', '/app/assets/index-abc.js']) {
      expect(directives(await get(path))['img-src'], path).toEqual(["'self'", 'data:', 'blob:']);
    }
  });

  it("adds the storage's origin (S3's presigned downloads) to images alone", async () => {
    for (const path of ['/s3/app/', '/s3/app/assets/index-abc.js']) {
      const policy = directives(await get(path));
      expect(policy['img-src'], path).toEqual(["'self'", 'data:', 'blob:', 'https://s3.example.org']);
      expect(policy['connect-src'], path).toEqual(["'self'"]);
      expect(policy['default-src'], path).toEqual(["'none'"]);
    }
  });

  it('allows the origins of S3 presigned URLs: path style, and virtual-host style on AWS', () => {
    expect(s3ImageOrigins('http://127.0.0.1:9000')).toEqual(['http://127.0.0.1:9000']);
    expect(s3ImageOrigins('https://s3.eu-west-1.amazonaws.com')).toEqual([
      'https://s3.eu-west-1.amazonaws.com',
      'https://*.s3.eu-west-1.amazonaws.com',
    ]);
  });

  it("adds Pusher's hosted service to connections alone", async () => {
    for (const path of ['/hosted/app/', '/hosted/app/assets/index-abc.js']) {
      const policy = directives(await get(path));
      expect(policy['connect-src'], path).toEqual(["'self'", 'wss://*.pusher.com']);
      expect(policy['img-src'], path).toEqual(["'self'", 'data:', 'blob:']);
      expect(policy['script-src'], path).toEqual(["'self'"]);
    }
  });

  it('says how to build the client when there is no build', async () => {
    const res = await get('/unbuilt/app/');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      error: { code: 'not_found', message: expect.stringContaining('pnpm build:web') },
    });
  });
});
