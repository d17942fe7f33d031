import { DomainError, type ErrorKind, type FieldIssue } from '@wms/kit/errors';
import type { Logger } from '@wms/kit/logger';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorRequestHandler, Response } from 'express';
import { maxFileBytes } from '../schemas.ts';

const httpStatus: Record<ErrorKind, number> = {
  invalid_argument: 400,
  unauthenticated: 401,
  permission_denied: 403,
  not_found: 404,
  already_exists: 409,
  failed_precondition: 409,
  gone: 410,
  resource_exhausted: 429,
  unavailable: 503,
  internal: 500,
};

/** The HTTP status of a domain error (DESIGN.md's mapping). */
export const httpStatusOf = (err: DomainError): number => httpStatus[err.kind];

/** Whether a request announces a body (a non-zero Content-Length, or chunks). */
export const declaresBody = (req: IncomingMessage): boolean =>
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0') ||
  req.headers['transfer-encoding'] !== undefined;

/**
 * The largest body an answer given before the request's body was read waits for: twice the largest upload, as far as
 * an upload is read past its limit (a JSON body over 1 MiB, or an upload with an expired session, is still answered).
 */
const UNREAD_BODY_LIMIT = 2 * maxFileBytes + 64 * 1024;
/** How long such an answer waits for the rest of the body at most. */
const UNREAD_BODY_WAIT_MS = 10_000;

/**
 * Writes the contract's error body (§1). A refusal made before anything read the request's body (a missing session, a
 * wrong workspace header) first reads the body and drops it, when it is of a declared size within the JSON limit:
 * a connection closed with bytes unread is reset, and a reset can reach the client before the answer does.
 */
export function sendError(res: Response, status: number, code: string, message: string, details?: FieldIssue[]): void {
  const requestId = String(res.getHeader('X-Request-Id') ?? '');
  res.locals.errorCode = code;
  const send = () => {
    if (!res.headersSent && !res.destroyed)
      res.status(status).json({ error: { code, message, request_id: requestId, ...(details ? { details } : {}) } });
  };
  const req = res.req;
  const declared = Number(req.headers['content-length']);
  if (req.complete || req.readableFlowing !== null || !(declared > 0 && declared <= UNREAD_BODY_LIMIT)) {
    send();
    return;
  }
  const timer = setTimeout(send, UNREAD_BODY_WAIT_MS);
  const finish = () => {
    clearTimeout(timer);
    send();
  };
  req.once('end', finish).once('error', finish).once('close', finish);
  req.resume();
}

/** The one place that turns errors into HTTP: domain errors by kind, body parser failures, anything else 500. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    if (res.headersSent) {
      // Too late for an error body: the client must see the response break, not wait for more bytes.
      log.warn({ err }, 'request failed after its response started');
      res.destroy();
      return;
    }
    if (err instanceof DomainError) {
      if (err.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(err.retryAfterSeconds));
      sendError(res, httpStatusOf(err), err.code, err.message, err.details);
      return;
    }
    // body-parser's failures carry a 4xx status; decompression errors (a body sent with a false Content-Encoding) have no type.
    const parserError = err as { type?: string; status?: number; expose?: boolean };
    if (parserError.type === 'entity.parse.failed') {
      sendError(res, 400, 'invalid_json', 'The request body is not valid JSON.');
      return;
    }
    if (parserError.type === 'entity.too.large') {
      sendError(res, 400, 'invalid_input', 'The request body is too large.', [
        { field: 'body', message: 'must be at most 1 MiB' },
      ]);
      return;
    }
    if (
      (parserError.type !== undefined || parserError.expose) &&
      parserError.status !== undefined &&
      parserError.status < 500
    ) {
      sendError(res, 400, 'invalid_input', 'The request body could not be read.', [
        { field: 'body', message: parserError.type ?? 'cannot be decoded' },
      ]);
      return;
    }
    log.error({ err }, 'request failed');
    sendError(res, 500, 'internal', 'Something went wrong on our side.');
  };
}

/** How long a connection whose request was refused unread stays open to read and drop the rest of it. */
const LINGER_MS = 2000;

/**
 * Requests Node's HTTP parser refuses before Express sees them (a header section over the size limit, a malformed
 * request line or header, a request that took too long to arrive) get the contract's error body too.
 *
 * The connection closes after the answer, but not at once: a client may still be sending the refused request's body,
 * and closing with its bytes unread resets the connection, which can discard the answer before the client reads it.
 * So what still arrives is read and dropped (each chunk makes the parser complain again) until the client closes, for
 * at most LINGER_MS.
 */
export function answerUnparsableRequests(server: Server): void {
  const refused = new WeakSet<Duplex>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (refused.has(socket)) return;
    // Reset, or closed by the client inside a request (a cut upload): nothing is left to answer, and the request in
    // flight learns at once that its client went away, instead of waiting for its body until it stalls.
    if (err.code === 'ECONNRESET' || err.code === 'HPE_INVALID_EOF_STATE' || !socket.writable) {
      socket.destroy();
      return;
    }
    refused.add(socket);
    const [status, reason, field, message] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'header', 'the headers are larger than the server accepts']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'body', 'the request did not arrive in time']
          : [400, 'Bad Request', 'header', 'the request line or a header is malformed'];
    const requestId = randomUUID();
    const body = JSON.stringify({
      error: {
        code: 'invalid_input',
        message: 'The request could not be read.',
        request_id: requestId,
        details: [{ field, message }],
      },
    });
    const answer = () => {
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
      socket.end(
        `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    };
    // A request before this one on the connection (pipelining) gets its whole answer first.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (inFlight && !inFlight.writableFinished) {
      inFlight.once('finish', answer);
      inFlight.once('close', () => inFlight.writableFinished || socket.destroy());
    } else answer();
  });
}
