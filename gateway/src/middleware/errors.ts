import { DomainError, type ErrorKind, type FieldIssue } from '@wms/kit/errors';
import type { Logger } from '@wms/kit/logger';
import type { ErrorRequestHandler, Response } from 'express';

const httpStatus: Record<ErrorKind, number> = {
  invalid_argument: 400,
  unauthenticated: 401,
  permission_denied: 403,
  not_found: 404,
  already_exists: 409,
  failed_precondition: 409,
  resource_exhausted: 429,
  unavailable: 503,
  internal: 500,
};

/**
 * Writes the contract's error body (§1). An answer given before the request body was read closes the connection,
 * so a client still sending (or stalled) does not hold it.
 */
export function sendError(res: Response, status: number, code: string, message: string, details?: FieldIssue[]): void {
  const requestId = String(res.getHeader('X-Request-Id') ?? '');
  if (!res.req.complete) res.setHeader('Connection', 'close');
  res.status(status).json({ error: { code, message, request_id: requestId, ...(details ? { details } : {}) } });
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
      sendError(res, httpStatus[err.kind], err.code, err.message, err.details);
      return;
    }
    const parserError = err as { type?: string; status?: number };
    if (parserError.type === 'entity.parse.failed') {
      sendError(res, 400, 'invalid_json', 'The request body is not valid JSON.');
      return;
    }
    if (parserError.type === 'entity.too.large') {
      sendError(res, 400, 'invalid_input', 'The request body is too large.', [{ field: 'body', message: 'must be at most 1 MiB' }]);
      return;
    }
    if (parserError.type !== undefined && parserError.status !== undefined && parserError.status < 500) {
      sendError(res, 400, 'invalid_input', 'The request body could not be read.', [{ field: 'body', message: parserError.type }]);
      return;
    }
    log.error({ err }, 'request failed');
    sendError(res, 500, 'internal', 'Something went wrong on our side.');
  };
}
