import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../src/errors.ts';
import {
  contentDisposition,
  createStorage,
  type ObjectStorage,
  type StorageConfig,
  verifySignedStorageRequest,
} from '../src/storage.ts';

// s3rver ships no types; this is the part of its API the test uses.
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverOptions = { address: string; port: number; silent: boolean; directory: string; resetOnClose?: boolean };
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: S3rverOptions) => S3rverServer;

const MiB = 1024 * 1024;
const randomKey = (prefix = 'assets') => `${prefix}/${randomUUID()}/${randomUUID()}`;

/** A stream of `total` random bytes in 64 KiB chunks with no length attached, and the bytes it yields. */
function randomStream(total: number, failAfter?: number): { stream: Readable; bytes: Buffer } {
  const bytes = randomBytes(total);
  async function* chunks() {
    for (let offset = 0; offset < total; offset += 64 * 1024) {
      if (failAfter !== undefined && offset >= failAfter) throw new Error('source failed');
      yield bytes.subarray(offset, offset + 64 * 1024);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return { stream: Readable.from(chunks()), bytes };
}

const expectDomainError = (kind: string, code: string) => expect.objectContaining({ name: 'DomainError', kind, code });

/**
 * Checks an AWS SigV4 presigned GET URL the way S3 does. s3rver 3.7.1 accepts any SigV4 request from a known access
 * key without checking the signature, so the signature's coverage (host, response headers) is verified here instead.
 */
function sigV4Valid(url: URL, secretKey: string): boolean {
  const rfc3986 = (text: string) =>
    encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const query = new URLSearchParams(url.search);
  const signature = query.get('X-Amz-Signature');
  query.delete('X-Amz-Signature');
  const [, date = '', region = '', service = ''] = (query.get('X-Amz-Credential') ?? '').split('/');
  if (query.get('X-Amz-SignedHeaders') !== 'host') return false;
  const canonicalQuery = [...query.entries()]
    .map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`)
    .sort()
    .join('&');
  const canonicalRequest = [
    'GET',
    url.pathname,
    canonicalQuery,
    `host:${url.host}`,
    '',
    'host',
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    query.get('X-Amz-Date'),
    scope,
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n');
  const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secretKey}`, date), region), service), 'aws4_request');
  return createHmac('sha256', signingKey).update(stringToSign).digest('hex') === signature;
}

interface Driver {
  name: 'fs' | 's3';
  start(): Promise<{ config: StorageConfig; stop: () => Promise<void> }>;
}

const FS_SECRET = randomBytes(32).toString('hex');

const drivers: Driver[] = [
  {
    name: 'fs',
    async start() {
      const dir = await mkdtemp(path.join(tmpdir(), 'wms-storage-'));
      return {
        config: { driver: 'fs', dir, publicUrl: 'https://wms.example.test/', secret: FS_SECRET },
        stop: () => rm(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 's3',
    async start() {
      const directory = await mkdtemp(path.join(tmpdir(), 'wms-s3rver-'));
      const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
      const { port } = await server.run();
      return {
        config: {
          driver: 's3',
          endpoint: `http://127.0.0.1:${port}`,
          accessKey: 'S3RVER',
          secretKey: 'S3RVER',
          region: 'us-east-1',
          bucket: `test-${randomBytes(6).toString('hex')}`,
        },
        async stop() {
          await server.close();
          await rm(directory, { recursive: true, force: true });
        },
      };
    },
  },
];

describe.each(drivers)('ObjectStorage ($name driver)', (driver) => {
  let storage: ObjectStorage;
  let config: StorageConfig;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ config, stop } = await driver.start());
    storage = createStorage(config);
  });

  afterAll(async () => {
    await stop?.();
  });

  it('round-trips bytes through put, get, getBuffer, stat and delete', async () => {
    const key = randomKey();
    const bytes = randomBytes(200 * 1024 + 7);
    await storage.put(key, bytes, { contentType: 'application/pdf', size: bytes.length });

    expect((await storage.getBuffer(key)).equals(bytes)).toBe(true);
    const streamed = Buffer.concat(await (await storage.get(key)).toArray());
    expect(streamed.equals(bytes)).toBe(true);
    expect(await storage.stat(key)).toEqual({ size: bytes.length, contentType: 'application/pdf' });

    await storage.delete([key, randomKey()]);
    expect(await storage.stat(key)).toBeUndefined();
    await expect(storage.getBuffer(key)).rejects.toThrow(expectDomainError('not_found', 'not_found'));
  });

  it('stores an empty object', async () => {
    const key = randomKey();
    await storage.put(key, Buffer.alloc(0), { contentType: 'text/plain' });
    expect(await storage.stat(key)).toEqual({ size: 0, contentType: 'text/plain' });
    expect((await storage.getBuffer(key)).length).toBe(0);
    const streamed = randomKey();
    await storage.put(streamed, Readable.from([]), { contentType: 'text/plain', size: 0 });
    expect(await storage.stat(streamed)).toEqual({ size: 0, contentType: 'text/plain' });
  });

  it('replaces an object and its content type', async () => {
    const key = randomKey('avatars');
    await storage.put(key, randomBytes(100), { contentType: 'image/png' });
    const second = randomBytes(50);
    await storage.put(key, second, { contentType: 'image/webp' });
    expect(await storage.stat(key)).toEqual({ size: 50, contentType: 'image/webp' });
    expect((await storage.getBuffer(key)).equals(second)).toBe(true);
  });

  it('stores a ~3 MiB stream of announced length', async () => {
    const key = randomKey();
    const { stream, bytes } = randomStream(3 * MiB);
    await storage.put(key, stream, { contentType: 'application/octet-stream', size: bytes.length });
    expect(await storage.stat(key)).toEqual({ size: bytes.length, contentType: 'application/octet-stream' });
    expect((await storage.getBuffer(key)).equals(bytes)).toBe(true);
  });

  it('stores a stream of several upload parts', async () => {
    const key = randomKey();
    const { stream, bytes } = randomStream(17 * MiB + 5);
    await storage.put(key, stream, { contentType: 'video/mp4', size: bytes.length });
    expect(await storage.stat(key)).toEqual({ size: bytes.length, contentType: 'video/mp4' });
    expect((await storage.getBuffer(key)).equals(bytes)).toBe(true);
  });

  it('fails the put and stores nothing when the source fails after the first upload part', async () => {
    const key = randomKey();
    const { stream } = randomStream(20 * MiB, 17 * MiB);
    await expect(storage.put(key, stream, { contentType: 'video/mp4', size: 20 * MiB })).rejects.toThrow(
      'source failed',
    );
    expect(stream.destroyed).toBe(true);
    expect(await storage.stat(key)).toBeUndefined();
  });

  it('destroys a stream it could not store', async () => {
    const { stream } = randomStream(MiB);
    await expect(storage.put('../x', stream, { contentType: 'text/plain', size: MiB })).rejects.toThrow(DomainError);
    expect(stream.destroyed).toBe(true);
  });

  it('rejects a stream shorter than its announced size and stores nothing', async () => {
    const key = randomKey();
    const { stream } = randomStream(100 * 1024);
    await expect(storage.put(key, stream, { contentType: 'image/png', size: 200 * 1024 })).rejects.toThrow(
      expectDomainError('invalid_argument', 'invalid_input'),
    );
    expect(await storage.stat(key)).toBeUndefined();
  });

  it('rejects a stream longer than its announced size and stores nothing', async () => {
    const key = randomKey();
    const { stream } = randomStream(MiB);
    await expect(storage.put(key, stream, { contentType: 'image/png', size: 1000 })).rejects.toThrow(
      expectDomainError('invalid_argument', 'invalid_input'),
    );
    expect(await storage.stat(key)).toBeUndefined();
  });

  it('fails the put and stores nothing when the source stream fails', async () => {
    const key = randomKey();
    const { stream } = randomStream(3 * MiB, MiB);
    await expect(storage.put(key, stream, { contentType: 'video/mp4', size: 3 * MiB })).rejects.toThrow(
      'source failed',
    );
    expect(stream.destroyed).toBe(true);
    expect(await storage.stat(key)).toBeUndefined();
    await expect(storage.get(key)).rejects.toThrow(expectDomainError('not_found', 'not_found'));
  });

  it('throws not_found for a missing key', async () => {
    const key = randomKey();
    await expect(storage.get(key)).rejects.toThrow(DomainError);
    await expect(storage.get(key)).rejects.toThrow(expectDomainError('not_found', 'not_found'));
    await expect(storage.getBuffer(key)).rejects.toThrow(expectDomainError('not_found', 'not_found'));
    expect(await storage.stat(key)).toBeUndefined();
  });

  it('treats a key that is only a prefix of other keys as absent', async () => {
    const key = randomKey();
    await storage.put(`${key}/child`, Buffer.from('x'), { contentType: 'text/plain' });
    await expect(storage.get(key)).rejects.toThrow(expectDomainError('not_found', 'not_found'));
    expect(await storage.stat(key)).toBeUndefined();
    await storage.delete([key]);
    expect(await storage.stat(`${key}/child`)).toEqual({ size: 1, contentType: 'text/plain' });
  });

  it.each(['../x', '/abs', 'a//b', '', 'a/../../b', 'a b', '.tmp/x'])(
    'rejects the key %j in every operation',
    async (key) => {
      const invalid = expectDomainError('invalid_argument', 'invalid_input');
      await expect(storage.put(key, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow(invalid);
      await expect(storage.get(key)).rejects.toThrow(invalid);
      await expect(storage.getBuffer(key)).rejects.toThrow(invalid);
      await expect(storage.stat(key)).rejects.toThrow(invalid);
      await expect(storage.delete(['ok/key', key])).rejects.toThrow(invalid);
      await expect(storage.signedUrl(key, { expiresInSeconds: 60, contentType: 'text/plain' })).rejects.toThrow(
        invalid,
      );
    },
  );

  it('rejects a content type that could smuggle header text', async () => {
    await expect(
      storage.put(randomKey(), Buffer.from('x'), { contentType: 'text/html\r\nSet-Cookie: a=b' }),
    ).rejects.toThrow(expectDomainError('invalid_argument', 'invalid_input'));
    await expect(storage.signedUrl(randomKey(), { expiresInSeconds: 60, contentType: 'text/plain\n' })).rejects.toThrow(
      expectDomainError('invalid_argument', 'invalid_input'),
    );
  });

  it('rejects an expiry outside 1 second to 7 days', async () => {
    for (const expiresInSeconds of [0, 1.5, 7 * 24 * 3600 + 1]) {
      await expect(storage.signedUrl(randomKey(), { expiresInSeconds, contentType: 'text/plain' })).rejects.toThrow(
        expectDomainError('invalid_argument', 'invalid_input'),
      );
    }
  });

  if (driver.name === 'fs') {
    describe('filesystem specifics', () => {
      const dir = () => (config as Extract<StorageConfig, { driver: 'fs' }>).dir;

      it('never shows a partial file to readers and leaves no temp file', async () => {
        const key = randomKey();
        const source = new PassThrough();
        const first = randomBytes(512 * 1024);
        const second = randomBytes(1000);
        const putting = storage.put(key, source, {
          contentType: 'application/octet-stream',
          size: first.length + second.length,
        });
        source.write(first);
        await expect
          .poll(async () => (await readdir(path.join(dir(), '.tmp'))).length, { timeout: 10_000 })
          .toBeGreaterThan(0);
        expect(await storage.stat(key)).toBeUndefined();
        source.end(second);
        await putting;
        expect((await storage.getBuffer(key)).equals(Buffer.concat([first, second]))).toBe(true);
        expect(await readdir(path.join(dir(), '.tmp'))).toEqual([]);
      });

      it('removes the temp file of a stream that fails before the file is open', async () => {
        // The file is opened while the first bytes arrive: a failure then fails the pipeline before it exists.
        for (let i = 0; i < 10; i++) {
          const failing = Readable.from(
            (async function* () {
              yield Buffer.from('ab');
              throw new Error('source failed at once');
            })(),
          );
          await expect(storage.put(randomKey(), failing, { contentType: 'text/plain', size: 10 })).rejects.toThrow(
            'source failed at once',
          );
        }
        // A put after them: by its end, their files would have been opened (and left) if they were to be.
        await storage.put(randomKey(), Buffer.from('after'), { contentType: 'text/plain' });
        expect(await readdir(path.join(dir(), '.tmp'))).toEqual([]);
      });

      it('removes the temp file of a failed stream', async () => {
        const { stream } = randomStream(2 * MiB, MiB);
        await expect(storage.put(randomKey(), stream, { contentType: 'text/plain', size: 2 * MiB })).rejects.toThrow(
          'source failed',
        );
        expect(await readdir(path.join(dir(), '.tmp'))).toEqual([]);
      });

      it('signs a gateway URL that verifySignedStorageRequest accepts as issued', async () => {
        const key = randomKey('assets');
        const before = Date.now();
        const { url, expiresAt } = await storage.signedUrl(key, {
          expiresInSeconds: 300,
          contentType: 'application/pdf',
          fileName: 'Résumé "2024".pdf',
          disposition: 'attachment',
        });
        const parsed = new URL(url);
        expect(`${parsed.origin}${parsed.pathname}`).toBe(`https://wms.example.test/storage/${key}`);
        expect([...parsed.searchParams.keys()]).toEqual(['expires', 'type', 'name', 'disposition', 'sig']);
        expect(parsed.searchParams.get('expires')).toBe(String(expiresAt.getTime() / 1000));
        expect(expiresAt.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 300_000);
        expect(expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 300_000);

        const expected = {
          contentType: 'application/pdf',
          contentDisposition: contentDisposition('attachment', 'Résumé "2024".pdf'),
        };
        expect(expected.contentDisposition).toBe(
          `attachment; filename="Resume 2024.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%222024%22.pdf`,
        );
        expect(verifySignedStorageRequest(FS_SECRET, key, parsed.searchParams)).toEqual(expected);
        // The shape express gives `req.query`.
        expect(verifySignedStorageRequest(FS_SECRET, key, Object.fromEntries(parsed.searchParams))).toEqual(expected);
        expect(
          verifySignedStorageRequest(FS_SECRET, key, parsed.searchParams, new Date(expiresAt.getTime() - 1)),
        ).toEqual(expected);
      });

      it('defaults to attachment and an empty name', async () => {
        const key = randomKey();
        const { url } = await storage.signedUrl(key, { expiresInSeconds: 60, contentType: 'text/html' });
        expect(verifySignedStorageRequest(FS_SECRET, key, new URL(url).searchParams)).toEqual({
          contentType: 'text/html',
          contentDisposition: 'attachment',
        });
      });

      it('rejects a tampered, altered, repeated, foreign or expired signed URL', async () => {
        const key = randomKey();
        const { url, expiresAt } = await storage.signedUrl(key, {
          expiresInSeconds: 60,
          contentType: 'image/png',
          fileName: 'a.png',
          disposition: 'inline',
        });
        const query = new URL(url).searchParams;
        const variant = (change: (q: URLSearchParams) => void) => {
          const copy = new URLSearchParams(query);
          change(copy);
          return copy;
        };
        const sig = query.get('sig') ?? '';
        const flipped = `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`;

        expect(
          verifySignedStorageRequest(
            FS_SECRET,
            key,
            variant((q) => q.set('sig', flipped)),
          ),
        ).toBeUndefined();
        expect(
          verifySignedStorageRequest(
            FS_SECRET,
            key,
            variant((q) => q.set('sig', sig.slice(0, 32))),
          ),
        ).toBeUndefined();
        expect(
          verifySignedStorageRequest(
            FS_SECRET,
            key,
            variant((q) => q.delete('sig')),
          ),
        ).toBeUndefined();
        expect(
          verifySignedStorageRequest(
            FS_SECRET,
            key,
            variant((q) => q.set('type', 'text/html')),
          ),
        ).toBeUndefined();
        expect(
          verifySignedStorageRequest(
            FS_SECRET,
            key,
            variant((q) => q.set('name', 'b.html')),
          ),
        ).toBeUndefined();
        expect(
          verifySignedStorageRequest(
            FS_SECRET,
            key,
            variant((q) => q.set('disposition', 'attachment')),
          ),
        ).toBeUndefined();
        expect(
          verifySignedStorageRequest(
            FS_SECRET,
            key,
            variant((q) => q.set('expires', String(Number(q.get('expires')) + 3600))),
          ),
        ).toBeUndefined();
        expect(
          verifySignedStorageRequest(
            FS_SECRET,
            key,
            variant((q) => q.append('type', 'text/html')),
          ),
        ).toBeUndefined();
        expect(
          verifySignedStorageRequest(
            FS_SECRET,
            key,
            variant((q) => q.append('name', 'a.png')),
          ),
        ).toBeUndefined();
        expect(
          verifySignedStorageRequest(FS_SECRET, key, {
            ...Object.fromEntries(query),
            type: ['image/png', 'text/html'],
          }),
        ).toBeUndefined();
        expect(verifySignedStorageRequest(FS_SECRET, randomKey(), query)).toBeUndefined();
        expect(verifySignedStorageRequest(FS_SECRET, '../x', query)).toBeUndefined();
        expect(verifySignedStorageRequest(randomBytes(32).toString('hex'), key, query)).toBeUndefined();
        expect(verifySignedStorageRequest(FS_SECRET, key, query, expiresAt)).toBeUndefined();
        expect(verifySignedStorageRequest(FS_SECRET, key, query, new Date(expiresAt.getTime() + 1000))).toBeUndefined();
      });
    });
  }

  if (driver.name === 's3') {
    describe('S3 specifics', () => {
      it('presigns a URL that serves the exact bytes with the requested headers to a plain fetch', async () => {
        const key = randomKey('assets');
        const bytes = randomBytes(300 * 1024);
        await storage.put(key, bytes, { contentType: 'application/octet-stream' });
        const fileName = 'Résumé "final" (2).pdf';
        const before = Date.now();
        const { url, expiresAt } = await storage.signedUrl(key, {
          expiresInSeconds: 120,
          contentType: 'application/pdf',
          fileName,
        });
        expect(expiresAt.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 120_000);
        expect(expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 120_000);

        const response = await fetch(url);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('application/pdf');
        expect(response.headers.get('content-disposition')).toBe(contentDisposition('attachment', fileName));
        expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
      });

      it('presigns inline disposition without a file name', async () => {
        const key = randomKey('avatars');
        const bytes = randomBytes(1024);
        await storage.put(key, bytes, { contentType: 'image/webp' });
        const response = await fetch(
          (await storage.signedUrl(key, { expiresInSeconds: 60, contentType: 'image/webp', disposition: 'inline' }))
            .url,
        );
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/webp');
        expect(response.headers.get('content-disposition')).toBe('inline');
        expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
      });

      it('signs the response headers and the expiry into the URL', async () => {
        const s3 = config as Extract<StorageConfig, { driver: 's3' }>;
        const key = randomKey();
        const { url, expiresAt } = await storage.signedUrl(key, {
          expiresInSeconds: 120,
          contentType: 'text/plain',
          fileName: 'a.txt',
        });
        const parsed = new URL(url);
        expect(sigV4Valid(parsed, s3.secretKey)).toBe(true);
        expect(parsed.searchParams.get('X-Amz-Expires')).toBe('120');
        const signedAt = (parsed.searchParams.get('X-Amz-Date') ?? '').replace(
          /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/,
          '$1-$2-$3T$4:$5:$6Z',
        );
        expect(new Date(signedAt).getTime() + 120_000).toBe(expiresAt.getTime());

        for (const [name, value] of [
          ['response-content-type', 'text/html'],
          ['response-content-disposition', 'inline'],
          ['X-Amz-Expires', '604800'],
        ] as const) {
          const altered = new URL(url);
          altered.searchParams.set(name, value);
          expect(sigV4Valid(altered, s3.secretKey)).toBe(false);
        }
        expect(sigV4Valid(parsed, 'another secret')).toBe(false);
      });

      it('signs for S3_PUBLIC_URL when clients reach S3 at another host', async () => {
        const s3 = config as Extract<StorageConfig, { driver: 's3' }>;
        const port = new URL(s3.endpoint).port;
        const publicStorage = createStorage({ ...s3, publicUrl: `http://localhost:${port}` });
        const key = randomKey();
        const bytes = randomBytes(4096);
        await publicStorage.put(key, bytes, { contentType: 'text/csv' });
        const { url } = await publicStorage.signedUrl(key, {
          expiresInSeconds: 60,
          contentType: 'text/csv',
          fileName: 'export.csv',
        });
        expect(new URL(url).host).toBe(`localhost:${port}`);
        expect(sigV4Valid(new URL(url), s3.secretKey)).toBe(true);
        const response = await fetch(url);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-disposition')).toBe(
          `attachment; filename="export.csv"; filename*=UTF-8''export.csv`,
        );
        expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);

        // The signature covers the public host: the same URL aimed at another host would be refused by S3.
        const internal = new URL(url);
        internal.host = `127.0.0.1:${port}`;
        expect(sigV4Valid(internal, s3.secretKey)).toBe(false);
      });

      it('creates the bucket once when several instances start at the same time', async () => {
        const s3 = config as Extract<StorageConfig, { driver: 's3' }>;
        const fresh = { ...s3, bucket: `race-${randomBytes(6).toString('hex')}` };
        const instances = Array.from({ length: 4 }, () => createStorage(fresh));
        const keys = instances.map(() => randomKey());
        await Promise.all(
          instances.map((instance, i) =>
            instance.put(keys[i] ?? '', Buffer.from(String(i)), { contentType: 'text/plain' }),
          ),
        );
        for (const [i, key] of keys.entries())
          expect((await createStorage(fresh).getBuffer(key)).toString()).toBe(String(i));
      });
    });
  }
});
