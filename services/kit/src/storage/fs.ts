import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { notFound } from '../errors.ts';
import {
  assertValidContentType,
  assertValidKey,
  ByteCounter,
  contentDisposition,
  expiry,
  KEY_PATTERN,
  sizeMismatch,
} from './rules.ts';
import type { ObjectStorage, SignedUrlOptions, StorageConfig } from './types.ts';

const SIGNED_FIELDS = ['expires', 'type', 'name', 'disposition'] as const;

function fsSignature(secret: string, key: string, fields: Record<(typeof SIGNED_FIELDS)[number], string>): Buffer {
  const payload = JSON.stringify(['wms-storage-v1', key, ...SIGNED_FIELDS.map((field) => fields[field])]);
  return createHmac('sha256', secret).update(payload).digest();
}

/**
 * Checks a download request of the filesystem driver (`/storage/<key>?expires&type&name&disposition&sig`) and returns
 * the headers to serve it with, or undefined when the signature is wrong, a parameter repeats or the URL expired.
 */
export function verifySignedStorageRequest(
  secret: string,
  key: string,
  query: URLSearchParams | Record<string, unknown>,
  now: Date = new Date(),
): { contentType: string; contentDisposition: string } | undefined {
  // Absent is undefined; repeated or not a string is null, which never verifies.
  const read = (name: string): string | null | undefined => {
    if (query instanceof URLSearchParams) {
      const values = query.getAll(name);
      return values.length === 0 ? undefined : values.length === 1 ? (values[0] ?? null) : null;
    }
    const value = query[name];
    return value === undefined ? undefined : typeof value === 'string' ? value : null;
  };
  if (!KEY_PATTERN.test(key) || key.length > 1024) return undefined;
  const expires = read('expires');
  const type = read('type');
  const name = read('name') ?? '';
  const disposition = read('disposition');
  const sig = read('sig');
  if (name === null || !expires || !/^\d{1,12}$/.test(expires) || !type || !sig || !/^[0-9a-f]{64}$/.test(sig))
    return undefined;
  if (disposition !== 'inline' && disposition !== 'attachment') return undefined;
  const expected = fsSignature(secret, key, { expires, type, name, disposition });
  // Security: constant-time comparison, so the signature cannot be guessed byte by byte from response times.
  if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return undefined;
  if (now.getTime() >= Number(expires) * 1000) return undefined;
  return { contentType: type, contentDisposition: contentDisposition(disposition, name) };
}

// A temp file is named after the key it is written for (`~` for each `/`, which no key contains; cut to keep the
// name within 255 bytes), so one left behind tells whose it was.
const tempName = (key: string): string => `${key.replaceAll('/', '~').slice(0, 200)}~${randomUUID()}`;

const isMissing = (error: unknown): boolean =>
  error instanceof Error && ['ENOENT', 'ENOTDIR', 'EISDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

/** Files under one directory; writes go to `.tmp/` and are renamed into place, content types live in `.meta/`. */
export class FsStorage implements ObjectStorage {
  private readonly dir: string;
  private readonly tmpDir: string;
  private readonly metaDir: string;
  private readonly publicUrl: string;
  private readonly secret: string;

  constructor(config: Extract<StorageConfig, { driver: 'fs' }>) {
    this.dir = path.resolve(config.dir);
    this.tmpDir = path.join(this.dir, '.tmp');
    this.metaDir = path.join(this.dir, '.meta');
    this.publicUrl = config.publicUrl.replace(/\/+$/, '');
    this.secret = config.secret;
  }

  private file(key: string): string {
    assertValidKey(key);
    return path.join(this.dir, key);
  }

  private metaFile(key: string): string {
    // `~` cannot occur in a key, so a metadata file never collides with a folder of another key's metadata.
    return path.join(this.metaDir, `${key}~meta.json`);
  }

  private async writeAtomically(key: string, target: string, write: (tmp: string) => Promise<void>): Promise<void> {
    await mkdir(this.tmpDir, { recursive: true });
    const tmp = path.join(this.tmpDir, tempName(key));
    try {
      await write(tmp);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(tmp, target);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }

  async put(key: string, body: Buffer | Readable, meta: { contentType: string; size?: number }): Promise<void> {
    await this.write(key, body, meta).catch((error: unknown) => {
      if (!Buffer.isBuffer(body)) body.destroy();
      throw error;
    });
  }

  private async write(
    key: string,
    body: Buffer | Readable,
    meta: { contentType: string; size?: number },
  ): Promise<void> {
    const target = this.file(key);
    assertValidContentType(meta.contentType);
    if (Buffer.isBuffer(body) && meta.size !== undefined && meta.size !== body.length) throw sizeMismatch();
    // The content type is in place before the bytes, so whoever sees the object also sees its type.
    await this.writeAtomically(key, this.metaFile(key), (tmp) =>
      writeFile(tmp, JSON.stringify({ contentType: meta.contentType }), { flag: 'wx' }),
    );
    await this.writeAtomically(key, target, async (tmp) => {
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      const file = createWriteStream(tmp, { flags: 'wx', flush: true });
      await pipeline(source, new ByteCounter(meta.size), file).catch(async (error: unknown) => {
        // A body that fails at once fails the pipeline while the file is still being opened: it exists only once the
        // stream has closed, and is removed after that.
        if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
        throw error;
      });
    });
  }

  async get(key: string): Promise<Readable> {
    const file = this.file(key);
    const handle = await open(file, 'r').catch((error: unknown) => {
      throw isMissing(error) ? notFound() : error;
    });
    try {
      if (!(await handle.stat()).isFile()) throw notFound();
    } catch (error) {
      await handle.close();
      throw error;
    }
    return handle.createReadStream();
  }

  async getBuffer(key: string): Promise<Buffer> {
    const file = this.file(key);
    return readFile(file).catch((error: unknown) => {
      throw isMissing(error) ? notFound() : error;
    });
  }

  async stat(key: string): Promise<{ size: number; contentType: string } | undefined> {
    const file = this.file(key);
    const stats = await stat(file).catch((error: unknown) => {
      if (isMissing(error)) return undefined;
      throw error;
    });
    if (!stats?.isFile()) return undefined;
    const meta = await readFile(this.metaFile(key), 'utf8')
      .then((text) => z.object({ contentType: z.string() }).safeParse(JSON.parse(text)).data)
      .catch(() => undefined);
    return { size: stats.size, contentType: meta?.contentType ?? 'application/octet-stream' };
  }

  async delete(keys: string[]): Promise<void> {
    const files = keys.map((key) => [this.file(key), this.metaFile(key)] as const);
    for (const [file, metaFile] of files) {
      for (const target of [file, metaFile]) {
        await unlink(target).catch((error: unknown) => {
          if (!isMissing(error)) throw error;
        });
      }
    }
  }

  async signedUrl(key: string, options: SignedUrlOptions): Promise<{ url: string; expiresAt: Date }> {
    assertValidKey(key);
    assertValidContentType(options.contentType);
    const { expires, expiresAt } = expiry(options.expiresInSeconds, new Date());
    const fields = {
      expires: String(expires),
      type: options.contentType,
      name: options.fileName ?? '',
      disposition: options.disposition ?? 'attachment',
    };
    const query = new URLSearchParams({ ...fields, sig: fsSignature(this.secret, key, fields).toString('hex') });
    return { url: `${this.publicUrl}/storage/${key}?${query.toString()}`, expiresAt };
  }
}
