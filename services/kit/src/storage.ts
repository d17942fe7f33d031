import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client, S3Error } from 'minio';
import { z } from 'zod';
import { ConfigError, env } from './config.ts';
import { invalidInput, notFound } from './errors.ts';
import { isMediaType } from './media-type.ts';

/** Object storage behind one small interface: the filesystem driver locally, any S3 (MinIO) in production. */
export interface ObjectStorage {
  /**
   * Stores bytes under `key`: a Buffer, or a Readable stream of announced size (checked: another byte count fails the
   * put and stores nothing). A failed put destroys the stream.
   */
  put(key: string, body: Buffer, meta: { contentType: string; size?: number }): Promise<void>;
  put(key: string, body: Readable, meta: { contentType: string; size: number }): Promise<void>;
  /** Reads an object as a stream; throws a DomainError not_found when absent. */
  get(key: string): Promise<Readable>;
  /** Reads a whole (small) object; throws a DomainError not_found when absent. */
  getBuffer(key: string): Promise<Buffer>;
  /** Size and content type, or undefined when absent. */
  stat(key: string): Promise<{ size: number; contentType: string } | undefined>;
  /** Removes objects; absent keys are fine. */
  delete(keys: string[]): Promise<void>;
  /** A URL that serves the object's exact bytes to anyone holding it, without headers, until `expiresAt`. */
  signedUrl(key: string, options: SignedUrlOptions): Promise<{ url: string; expiresAt: Date }>;
}

/** Options of `ObjectStorage.signedUrl`; disposition defaults to `attachment`. */
export interface SignedUrlOptions {
  expiresInSeconds: number;
  contentType: string;
  fileName?: string;
  disposition?: 'inline' | 'attachment';
}

/** Where objects live: a directory (served by the gateway through signed URLs) or an S3 bucket. */
export type StorageConfig =
  | { driver: 'fs'; dir: string; publicUrl: string; secret: string }
  | {
      driver: 's3';
      endpoint: string;
      accessKey: string;
      secretKey: string;
      region: string;
      bucket: string;
      /** The base URL clients reach S3 at, when it differs from `endpoint`. */
      publicUrl?: string | undefined;
    };

/** Storage variables (DESIGN.md, Configuration), to spread into a service's config schema. */
export const storageEnv = {
  STORAGE_DRIVER: z.enum(['fs', 's3']).default('fs'),
  STORAGE_DIR: env.string('.wms/storage'),
  /** HMAC key of the filesystem driver's download URLs; shared by the services that sign and the gateway that serves. */
  STORAGE_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  PUBLIC_URL: env.url('http://localhost:8080').transform((u) => u.replace(/\/+$/, '')),
  S3_ENDPOINT: z.string().url().optional(),
  S3_ACCESS_KEY: z.string().min(1).optional(),
  S3_SECRET_KEY: z.string().min(1).optional(),
  S3_REGION: env.string('us-east-1'),
  S3_BUCKET: env.string('wms'),
  S3_PUBLIC_URL: z.string().url().optional(),
};

/** The parsed variables of `storageEnv`. */
export type StorageEnv = z.output<z.ZodObject<typeof storageEnv>>;

/** Builds the storage config from parsed env; throws a ConfigError listing every variable the chosen driver misses. */
export function storageConfigFrom(parsed: StorageEnv, cwd = process.cwd()): StorageConfig {
  const required = (names: Record<string, string | undefined>): void => {
    const missing = Object.entries(names).filter(([, value]) => !value);
    if (missing.length === 0) return;
    const lines = missing.map(([name]) => `  ${name}: is required when STORAGE_DRIVER=${parsed.STORAGE_DRIVER}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  };
  if (parsed.STORAGE_DRIVER === 'fs') {
    required({ STORAGE_SECRET: parsed.STORAGE_SECRET });
    return { driver: 'fs', dir: path.resolve(cwd, parsed.STORAGE_DIR), publicUrl: parsed.PUBLIC_URL, secret: parsed.STORAGE_SECRET ?? '' };
  }
  required({ S3_ENDPOINT: parsed.S3_ENDPOINT, S3_ACCESS_KEY: parsed.S3_ACCESS_KEY, S3_SECRET_KEY: parsed.S3_SECRET_KEY });
  return {
    driver: 's3',
    endpoint: parsed.S3_ENDPOINT ?? '',
    accessKey: parsed.S3_ACCESS_KEY ?? '',
    secretKey: parsed.S3_SECRET_KEY ?? '',
    region: parsed.S3_REGION,
    bucket: parsed.S3_BUCKET,
    publicUrl: parsed.S3_PUBLIC_URL,
  };
}

/** The driver the config names. */
export function createStorage(config: StorageConfig): ObjectStorage {
  return config.driver === 'fs' ? new FsStorage(config) : new S3Storage(config);
}

const KEY_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/**
 * Rejects anything but relative paths of `[A-Za-z0-9._-]` segments. Segments may not start with a dot, which rules
 * out `.` and `..` (path traversal) and keeps `.tmp` and `.meta` of the filesystem driver out of reach.
 */
export function assertValidKey(key: string): void {
  if (key.length === 0 || key.length > 1024 || !KEY_PATTERN.test(key)) {
    throw invalidInput([{ field: 'key', message: 'must be a relative path of [A-Za-z0-9._-] segments not starting with a dot' }], 'The storage key is invalid.');
  }
}

function assertValidContentType(contentType: string): void {
  if (!isMediaType(contentType)) {
    throw invalidInput([{ field: 'contentType', message: 'must be a media type such as image/png' }], 'The content type is invalid.');
  }
}

const MAX_EXPIRY_SECONDS = 7 * 24 * 60 * 60;

function expiry(expiresInSeconds: number, now: Date): { expires: number; expiresAt: Date } {
  if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > MAX_EXPIRY_SECONDS) {
    throw invalidInput([{ field: 'expiresInSeconds', message: `must be an integer from 1 to ${MAX_EXPIRY_SECONDS}` }]);
  }
  const expires = Math.floor(now.getTime() / 1000) + expiresInSeconds;
  return { expires, expiresAt: new Date(expires * 1000) };
}

function sizeMismatch(): Error {
  return invalidInput([{ field: 'size', message: 'does not match the number of bytes received' }], 'The upload is incomplete.');
}

/** Passes bytes through and fails when their count differs from the announced size. */
class ByteCounter extends Transform {
  private count = 0;

  constructor(private readonly expected: number | undefined) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.count += chunk.length;
    if (this.expected !== undefined && this.count > this.expected) callback(sizeMismatch());
    else callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    callback(this.expected !== undefined && this.count !== this.expected ? sizeMismatch() : null);
  }
}

/** A Content-Disposition value: an ASCII fallback without quotes or control characters and the exact name as RFC 6266 `filename*`. */
export function contentDisposition(disposition: 'inline' | 'attachment', fileName?: string): string {
  const name = (fileName ?? '').replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '').replace(/[/\\]/g, '_').trim();
  if (!name) return disposition;
  const fallback =
    name
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^\x20-\x7e]/g, '_')
      .replace(/["\\%;]/g, '')
      .trim() || 'download';
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

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
  if (name === null || !expires || !/^\d{1,12}$/.test(expires) || !type || !sig || !/^[0-9a-f]{64}$/.test(sig)) return undefined;
  if (disposition !== 'inline' && disposition !== 'attachment') return undefined;
  const expected = fsSignature(secret, key, { expires, type, name, disposition });
  // Security: constant-time comparison, so the signature cannot be guessed byte by byte from response times.
  if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return undefined;
  if (now.getTime() >= Number(expires) * 1000) return undefined;
  return { contentType: type, contentDisposition: contentDisposition(disposition, name) };
}

const isMissing = (error: unknown): boolean =>
  error instanceof Error && ['ENOENT', 'ENOTDIR', 'EISDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

/** Files under one directory; writes go to `.tmp/` and are renamed into place, content types live in `.meta/`. */
class FsStorage implements ObjectStorage {
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

  private async writeAtomically(target: string, write: (tmp: string) => Promise<void>): Promise<void> {
    await mkdir(this.tmpDir, { recursive: true });
    const tmp = path.join(this.tmpDir, randomUUID());
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

  private async write(key: string, body: Buffer | Readable, meta: { contentType: string; size?: number }): Promise<void> {
    const target = this.file(key);
    assertValidContentType(meta.contentType);
    if (Buffer.isBuffer(body) && meta.size !== undefined && meta.size !== body.length) throw sizeMismatch();
    // The content type is in place before the bytes, so whoever sees the object also sees its type.
    await this.writeAtomically(this.metaFile(key), (tmp) => writeFile(tmp, JSON.stringify({ contentType: meta.contentType }), { flag: 'wx' }));
    await this.writeAtomically(target, async (tmp) => {
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      await pipeline(source, new ByteCounter(meta.size), createWriteStream(tmp, { flags: 'wx', flush: true }));
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
    const fields = { expires: String(expires), type: options.contentType, name: options.fileName ?? '', disposition: options.disposition ?? 'attachment' };
    const query = new URLSearchParams({ ...fields, sig: fsSignature(this.secret, key, fields).toString('hex') });
    return { url: `${this.publicUrl}/storage/${key}?${query.toString()}`, expiresAt };
  }
}

function s3Client(url: string, config: Extract<StorageConfig, { driver: 's3' }>): Client {
  const parsed = new URL(url);
  if ((parsed.pathname !== '/' && parsed.pathname !== '') || parsed.search || parsed.hash) {
    throw new ConfigError(`invalid configuration:\n  S3 URL ${parsed.origin}: must not have a path or query`);
  }
  return new Client({
    endPoint: parsed.hostname,
    ...(parsed.port ? { port: Number(parsed.port) } : {}),
    useSSL: parsed.protocol === 'https:',
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    // A known region spares the client a location request, which presigning against a public host could not make.
    region: config.region,
  });
}

const S3_NOT_FOUND = new Set(['NoSuchKey', 'NotFound', 'NoSuchBucket']);
const isS3NotFound = (error: unknown): boolean => error instanceof S3Error && S3_NOT_FOUND.has(error.code ?? '');

// Streamed parts reuse their connections.
const httpAgent = new http.Agent({ keepAlive: true });
const httpsAgent = new https.Agent({ keepAlive: true });
// A part's presigned URL must be used within this; S3 accepts the body for as long as it keeps flowing.
const PART_URL_SECONDS = 15 * 60;
const PART_IDLE_MS = 60_000;

/** PUTs exactly `length` bytes of `body` to a presigned URL and returns the ETag S3 answers with. */
async function putStream(url: URL, body: Readable, length: number): Promise<string> {
  const secure = url.protocol === 'https:';
  const request = (secure ? https : http).request(url, { method: 'PUT', agent: secure ? httpsAgent : httpAgent, headers: { 'content-length': length } });
  // An idle connection, not a slow one: when neither side moves a byte for this long (a source or an S3 that stalled),
  // the put fails instead of hanging.
  request.setTimeout(PART_IDLE_MS, () => request.destroy(new Error(`a part of ${url.pathname} stalled for ${PART_IDLE_MS / 1000} s`)));
  const answered = new Promise<string>((resolve, reject) => {
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', reject);
      response.once('end', () => {
        const etag = response.headers.etag;
        if (response.statusCode === 200 && etag) resolve(etag.replace(/^"|"$/g, ''));
        else reject(new Error(`S3 refused a part of ${url.pathname}: ${response.statusCode} ${s3ErrorCode(Buffer.concat(chunks).toString('utf8'))}`));
      });
    });
  });
  try {
    const [, etag] = await Promise.all([pipeline(body, request), answered]);
    return etag;
  } catch (error) {
    request.destroy();
    throw error;
  }
}

/** The `<Code>` of an S3 error document, for messages. */
const s3ErrorCode = (xml: string): string => /<Code>([^<]{1,100})<\/Code>/.exec(xml)?.[1] ?? 'without an error code';

/** A source of announced size handed out in consecutive pieces of given lengths; a wrong byte count is size_mismatch. */
class SizedSource {
  private rest: Buffer | undefined;

  constructor(private readonly chunks: AsyncIterator<Buffer | string>) {}

  /** The next `length` bytes as they arrive; consume it whole before taking the next piece. */
  async *take(length: number): AsyncGenerator<Buffer> {
    for (let missing = length; missing > 0; ) {
      let chunk = this.rest;
      this.rest = undefined;
      if (!chunk) {
        const next = await this.chunks.next();
        if (next.done) throw sizeMismatch();
        chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
      }
      if (chunk.length > missing) {
        this.rest = chunk.subarray(missing);
        chunk = chunk.subarray(0, missing);
      }
      missing -= chunk.length;
      yield chunk;
    }
  }

  /** Fails when the source holds more than was taken. */
  async end(): Promise<void> {
    if (this.rest?.length || !(await this.chunks.next()).done) throw sizeMismatch();
  }
}

// S3's smallest part: the size of a streamed upload's parts.
const PART_SIZE = 5 * 1024 * 1024;

/** Any S3 through the minio client; the bucket is created on first use. */
class S3Storage implements ObjectStorage {
  private readonly client: Client;
  private readonly presigner: Client;
  private readonly bucket: string;
  private readonly region: string;
  private ready: Promise<void> | undefined;

  constructor(config: Extract<StorageConfig, { driver: 's3' }>) {
    this.client = s3Client(config.endpoint, config);
    // Signatures cover the host, so URLs for clients are signed for the host they will call, not rewritten afterwards.
    this.presigner = config.publicUrl ? s3Client(config.publicUrl, config) : this.client;
    this.bucket = config.bucket;
    this.region = config.region;
  }

  private async ensureBucket(): Promise<string> {
    this.ready ??= (async () => {
      if (await this.client.bucketExists(this.bucket)) return;
      try {
        await this.client.makeBucket(this.bucket, this.region);
      } catch (error) {
        // Another process may have created it in between.
        if (!(await this.client.bucketExists(this.bucket))) throw error;
      }
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    await this.ready;
    return this.bucket;
  }

  /**
   * A Buffer goes up in one request. A stream goes up as it arrives: a multipart upload whose parts are PUT with the
   * stream itself as their body, holding nothing but the sockets' buffers; nothing is visible before the upload
   * completes, and a failed one is aborted. (minio's own stream upload buffers whole parts of 64 MiB or more, hangs
   * when the source fails, and resumes any unfinished upload of the same key.)
   */
  async put(key: string, body: Buffer | Readable, meta: { contentType: string; size?: number }): Promise<void> {
    await this.upload(key, body, meta).catch((error: unknown) => {
      if (!Buffer.isBuffer(body)) body.destroy();
      throw error;
    });
  }

  private async upload(key: string, body: Buffer | Readable, meta: { contentType: string; size?: number }): Promise<void> {
    assertValidKey(key);
    assertValidContentType(meta.contentType);
    if (Buffer.isBuffer(body)) {
      if (meta.size !== undefined && meta.size !== body.length) throw sizeMismatch();
      await this.client.putObject(await this.ensureBucket(), key, body, body.length, { 'Content-Type': meta.contentType });
      return;
    }
    if (meta.size === undefined) throw new TypeError('a stream is stored with its size');
    await this.uploadStreamed(key, body, meta.size, meta.contentType);
  }

  /**
   * A multipart upload of parts cut from the stream as it flows. Parts are PUT to presigned URLs: query authentication
   * signs no payload hash, which a signed request over plain HTTP would have to, hashing each part before sending it.
   */
  private async uploadStreamed(key: string, body: Readable, size: number, contentType: string): Promise<void> {
    const bucket = await this.ensureBucket();
    const source = new SizedSource(body[Symbol.asyncIterator]());
    if (size === 0) {
      await source.end();
      await this.client.putObject(bucket, key, Buffer.alloc(0), 0, { 'Content-Type': contentType });
      return;
    }
    const uploadId = await this.client.initiateNewMultipartUpload(bucket, key, { 'Content-Type': contentType });
    try {
      const etags: { part: number; etag: string }[] = [];
      for (let offset = 0; offset < size; offset += PART_SIZE) {
        const part = etags.length + 1;
        const length = Math.min(PART_SIZE, size - offset);
        const url = await this.client.presignedUrl('PUT', bucket, key, PART_URL_SECONDS, { partNumber: String(part), uploadId });
        etags.push({ part, etag: await putStream(new URL(url), Readable.from(source.take(length)), length) });
      }
      await source.end();
      await this.client.completeMultipartUpload(bucket, key, uploadId, etags);
    } catch (error) {
      await this.client.abortMultipartUpload(bucket, key, uploadId).catch(() => undefined);
      throw error;
    }
  }

  async get(key: string): Promise<Readable> {
    assertValidKey(key);
    const bucket = await this.ensureBucket();
    return this.client.getObject(bucket, key).catch((error: unknown) => {
      throw isS3NotFound(error) ? notFound() : error;
    });
  }

  async getBuffer(key: string): Promise<Buffer> {
    const stream = await this.get(key);
    return Buffer.concat(await stream.toArray());
  }

  async stat(key: string): Promise<{ size: number; contentType: string } | undefined> {
    assertValidKey(key);
    const bucket = await this.ensureBucket();
    try {
      const stats = await this.client.statObject(bucket, key);
      const contentType = stats.metaData['content-type'];
      return { size: stats.size, contentType: typeof contentType === 'string' ? contentType : 'application/octet-stream' };
    } catch (error) {
      if (isS3NotFound(error)) return undefined;
      throw error;
    }
  }

  async delete(keys: string[]): Promise<void> {
    keys.forEach(assertValidKey);
    if (keys.length === 0) return;
    const bucket = await this.ensureBucket();
    const failures = (await this.client.removeObjects(bucket, keys)).filter((result) => result?.Error && result.Error.Code !== 'NoSuchKey');
    if (failures.length > 0) {
      const codes = [...new Set(failures.map((failure) => failure?.Error?.Code ?? 'unknown'))].join(', ');
      throw new Error(`could not delete ${failures.length} of ${keys.length} objects: ${codes}`);
    }
  }

  async signedUrl(key: string, options: SignedUrlOptions): Promise<{ url: string; expiresAt: Date }> {
    assertValidKey(key);
    assertValidContentType(options.contentType);
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    const { expiresAt } = expiry(options.expiresInSeconds, now);
    const url = await this.presigner.presignedGetObject(
      this.bucket,
      key,
      options.expiresInSeconds,
      {
        'response-content-type': options.contentType,
        'response-content-disposition': contentDisposition(options.disposition ?? 'attachment', options.fileName),
      },
      now,
    );
    return { url, expiresAt };
  }
}
