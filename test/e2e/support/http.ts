import { randomBytes, randomInt } from 'node:crypto';
import { connect } from 'node:net';
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
  /** How long to wait for the answer (15 s). */
  timeoutMs?: number;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response says it is JSON, else the text ('' when empty). */
  body: unknown;
}

let target: { gatewayUrl: string; inboxUrl: string } | undefined;

/** Points this test file's requests, sign-ups and mail at a cluster of its own instead of the shared one. */
export function useCluster(cluster: { gatewayUrl: string; inboxUrl: string }): void {
  target = cluster;
}

/** The gateway this file talks to. */
export const gatewayUrl = (): string => target?.gatewayUrl ?? inject('gatewayUrl');

/** The mail catcher's inbox of the cluster this file talks to. */
export const inboxUrl = (): string => target?.inboxUrl ?? inject('inboxUrl');

/** One request to the test cluster's gateway. */
export async function api(
  method: string,
  path: string,
  { body, raw, token, headers = {}, ip, timeoutMs = 15_000 }: ApiOptions = {},
): Promise<ApiResponse> {
  const sent: Record<string, string> = Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]),
  );
  const form = body instanceof FormData ? body : undefined;
  const payload = raw ?? (form || body === undefined ? undefined : JSON.stringify(body));
  if (payload !== undefined) sent['content-type'] ??= 'application/json';
  if (token !== undefined) sent.authorization = `Bearer ${token}`;
  if (ip !== undefined) sent['x-forwarded-for'] = ip;
  const res = await fetch(new URL(path, gatewayUrl()), {
    method,
    headers: sent,
    body: form ?? payload,
    signal: AbortSignal.timeout(timeoutMs),
  }).catch((err: unknown) => {
    // undici's "fetch failed" says why only in its cause (the socket closed, reset, refused).
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(
      `${method} ${path}: ${(err as Error).message}${cause ? `: ${cause.code ?? ''} ${cause.message ?? ''}` : ''}`,
      { cause: err },
    );
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

/**
 * A raw connection to `baseUrl`'s host and port, for requests fetch will not make (truncated bodies, duplicated headers,
 * clients that stop sending): `send` writes as the test goes, `cut` closes it, and `answer` resolves with what came
 * back once answered in full or the connection closed.
 */
export function rawConnection(baseUrl: string): {
  send(bytes: string | Buffer): void;
  cut(): void;
  answer: Promise<string>;
} {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  const answer = new Promise<string>((resolve) => {
    let received = Buffer.alloc(0);
    const done = () => {
      socket.destroy();
      resolve(received.toString('utf8'));
    };
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(received.subarray(0, end).toString('latin1'));
      if (end >= 0 && length && received.length - end - 4 >= Number(length[1])) done();
    });
    socket.on('close', done);
    socket.on('error', done);
  });
  return { send: (bytes) => void socket.write(bytes), cut: () => void socket.destroy(), answer };
}

/** Sends raw bytes (see rawConnection) and resolves with what came back, or what had when `destroyAfterMs` passed. */
export function rawHttp(
  baseUrl: string,
  bytes: string | Buffer,
  { destroyAfterMs }: { destroyAfterMs?: number } = {},
): Promise<string> {
  const connection = rawConnection(baseUrl);
  connection.send(bytes);
  if (destroyAfterMs !== undefined) setTimeout(() => connection.cut(), destroyAfterMs);
  return connection.answer;
}

/** The status and parsed JSON body of a raw HTTP answer. */
export function parseRawAnswer(answer: string): { status: number; headers: string; body: unknown } {
  const [head = '', ...rest] = answer.split('\r\n\r\n');
  const text = rest.join('\r\n\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
    headers: head,
    body: text ? JSON.parse(text) : undefined,
  };
}
