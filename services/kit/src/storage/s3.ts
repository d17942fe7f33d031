import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client, S3Error } from 'minio';
import { ConfigError } from '../config.ts';
import { notFound } from '../errors.ts';
import { assertValidContentType, assertValidKey, contentDisposition, expiry, sizeMismatch } from './rules.ts';
import type { ObjectStorage, SignedUrlOptions, StorageConfig } from './types.ts';

// Every request to S3 on a connection of its own. S3 closes a connection left idle (s3rver after 5 s), and a request
// sent on a kept-alive connection as the server's idle timer fires finds it closed, unanswered: EPIPE or ECONNRESET.
// Node's agent stops reusing a connection a second before the announced timeout, which a loaded machine overruns. A
// part's body is the upload stream itself and cannot be sent again, and the minio client retries no network error.
// The price is a TCP (and, against a real S3, TLS) handshake per request to S3, about four per upload: accepted,
// since each of those requests carries far more work than its handshake.
const httpAgent = new http.Agent({ keepAlive: false });
const httpsAgent = new https.Agent({ keepAlive: false });

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
    transportAgent: parsed.protocol === 'https:' ? httpsAgent : httpAgent,
  });
}

const S3_NOT_FOUND = new Set(['NoSuchKey', 'NotFound', 'NoSuchBucket']);
const isS3NotFound = (error: unknown): boolean => error instanceof S3Error && S3_NOT_FOUND.has(error.code ?? '');

// A part's presigned URL must be used within this; S3 accepts the body for as long as it keeps flowing.
const PART_URL_SECONDS = 15 * 60;
const PART_IDLE_MS = 60_000;

/** PUTs exactly `length` bytes of `body` to a presigned URL and returns the ETag S3 answers with. */
async function putStream(url: URL, body: Readable, length: number): Promise<string> {
  const secure = url.protocol === 'https:';
  const request = (secure ? https : http).request(url, {
    method: 'PUT',
    agent: secure ? httpsAgent : httpAgent,
    headers: { 'content-length': length },
  });
  // An idle connection, not a slow one: when neither side moves a byte for this long (a source or an S3 that stalled),
  // the put fails instead of hanging.
  request.setTimeout(PART_IDLE_MS, () =>
    request.destroy(new Error(`a part of ${url.pathname} stalled for ${PART_IDLE_MS / 1000} s`)),
  );
  const answered = new Promise<string>((resolve, reject) => {
    // The connection may also fail once the whole body went out, the pipeline done: then no answer ever comes.
    request.once('error', reject);
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', reject);
      response.once('end', () => {
        const etag = response.headers.etag;
        if (response.statusCode === 200 && etag) resolve(etag.replace(/^"|"$/g, ''));
        else
          reject(
            new Error(
              `S3 refused a part of ${url.pathname}: ${response.statusCode} ${s3ErrorCode(Buffer.concat(chunks).toString('utf8'))}`,
            ),
          );
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
    for (let missing = length; missing > 0;) {
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
export class S3Storage implements ObjectStorage {
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

  private async upload(
    key: string,
    body: Buffer | Readable,
    meta: { contentType: string; size?: number },
  ): Promise<void> {
    assertValidKey(key);
    assertValidContentType(meta.contentType);
    if (Buffer.isBuffer(body)) {
      if (meta.size !== undefined && meta.size !== body.length) throw sizeMismatch();
      await this.client.putObject(await this.ensureBucket(), key, body, body.length, {
        'Content-Type': meta.contentType,
      });
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
        const url = await this.client.presignedUrl('PUT', bucket, key, PART_URL_SECONDS, {
          partNumber: String(part),
          uploadId,
        });
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
      const contentType: unknown = stats.metaData['content-type'];
      return {
        size: stats.size,
        contentType: typeof contentType === 'string' ? contentType : 'application/octet-stream',
      };
    } catch (error) {
      if (isS3NotFound(error)) return undefined;
      throw error;
    }
  }

  async delete(keys: string[]): Promise<void> {
    keys.forEach(assertValidKey);
    if (keys.length === 0) return;
    const bucket = await this.ensureBucket();
    const failures = (await this.client.removeObjects(bucket, keys)).filter(
      (result) => result?.Error && result.Error.Code !== 'NoSuchKey',
    );
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
