import { randomBytes, randomInt } from 'node:crypto';
import { inject } from 'vitest';

export interface ApiOptions {
  /** Sent as JSON, or as multipart/form-data when a FormData. */
  body?: unknown;
  /** Sent verbatim (as `application/json` unless headers say otherwise), for malformed bodies. */
  raw?: string;
  /** Bearer access token. */
  token?: string;
  headers?: Record<string, string>;
  /** The client address the gateway should see (sent as X-Forwarded-For; the test cluster trusts loopback). */
  ip?: string;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response says it is JSON, else the text ('' when empty). */
  body: unknown;
}

/** One request to the test cluster's gateway. */
export async function api(method: string, path: string, { body, raw, token, headers = {}, ip }: ApiOptions = {}): Promise<ApiResponse> {
  const sent: Record<string, string> = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const form = body instanceof FormData ? body : undefined;
  const payload = raw ?? (form || body === undefined ? undefined : JSON.stringify(body));
  if (payload !== undefined) sent['content-type'] ??= 'application/json';
  if (token !== undefined) sent.authorization = `Bearer ${token}`;
  if (ip !== undefined) sent['x-forwarded-for'] = ip;
  const res = await fetch(new URL(path, inject('gatewayUrl')), {
    method,
    headers: sent,
    body: form ?? payload,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  const isJson = /^application\/([\w.+-]+\+)?json/i.test(res.headers.get('content-type') ?? '');
  return { status: res.status, headers: res.headers, body: isJson && text !== '' ? JSON.parse(text) : text };
}

/** A private client address, so each test gets its own per-IP rate limits. */
export function randomIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

/** An address no other test (or earlier run) uses. */
export function uniqueEmail(tag = 'user'): string {
  const safe = tag.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
  return `${safe}-${randomBytes(6).toString('hex')}@example.test`;
}
