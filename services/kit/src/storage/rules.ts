import { Transform, type TransformCallback } from 'node:stream';
import { invalidInput } from '../errors.ts';
import { isMediaType } from '../media-type.ts';

// The rules every storage driver applies: keys, content types, expiry, sizes, download names.

export const KEY_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/**
 * Rejects anything but relative paths of `[A-Za-z0-9._-]` segments. Segments may not start with a dot, which rules
 * out `.` and `..` (path traversal) and keeps `.tmp` and `.meta` of the filesystem driver out of reach.
 */
export function assertValidKey(key: string): void {
  if (key.length === 0 || key.length > 1024 || !KEY_PATTERN.test(key)) {
    throw invalidInput(
      [{ field: 'key', message: 'must be a relative path of [A-Za-z0-9._-] segments not starting with a dot' }],
      'The storage key is invalid.',
    );
  }
}

export function assertValidContentType(contentType: string): void {
  if (!isMediaType(contentType)) {
    throw invalidInput(
      [{ field: 'contentType', message: 'must be a media type such as image/png' }],
      'The content type is invalid.',
    );
  }
}

const MAX_EXPIRY_SECONDS = 7 * 24 * 60 * 60;

export function expiry(expiresInSeconds: number, now: Date): { expires: number; expiresAt: Date } {
  if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > MAX_EXPIRY_SECONDS) {
    throw invalidInput([{ field: 'expiresInSeconds', message: `must be an integer from 1 to ${MAX_EXPIRY_SECONDS}` }]);
  }
  const expires = Math.floor(now.getTime() / 1000) + expiresInSeconds;
  return { expires, expiresAt: new Date(expires * 1000) };
}

export function sizeMismatch(): Error {
  return invalidInput(
    [{ field: 'size', message: 'does not match the number of bytes received' }],
    'The upload is incomplete.',
  );
}

/** Passes bytes through and fails when their count differs from the announced size. */
export class ByteCounter extends Transform {
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
  const name = (fileName ?? '')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .replace(/[/\\]/g, '_')
    .trim();
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
