import * as grpc from '@grpc/grpc-js';
import { DomainError, type ErrorKind, type FieldIssue, unavailable } from './errors.ts';

const ERROR_KEY = 'wms-error-bin';

const statusOf: Record<ErrorKind, grpc.status> = {
  invalid_argument: grpc.status.INVALID_ARGUMENT,
  unauthenticated: grpc.status.UNAUTHENTICATED,
  permission_denied: grpc.status.PERMISSION_DENIED,
  not_found: grpc.status.NOT_FOUND,
  already_exists: grpc.status.ALREADY_EXISTS,
  failed_precondition: grpc.status.FAILED_PRECONDITION,
  // What the request names existed but is no longer kept (an expired cursor): past the range still served.
  gone: grpc.status.OUT_OF_RANGE,
  resource_exhausted: grpc.status.RESOURCE_EXHAUSTED,
  unavailable: grpc.status.UNAVAILABLE,
  internal: grpc.status.INTERNAL,
};

const kindOf = new Map<grpc.status, ErrorKind>(
  Object.entries(statusOf).map(([kind, status]) => [status, kind as ErrorKind]),
);

interface WireError {
  code: string;
  message: string;
  details?: FieldIssue[];
  retry_after?: number;
}

/** A domain error as a gRPC error: the status from its kind, the contract code in trailing metadata. */
export function toGrpcError(err: DomainError): Partial<grpc.StatusObject> {
  const metadata = new grpc.Metadata();
  const wire: WireError = {
    code: err.code,
    message: err.message,
    details: err.details,
    retry_after: err.retryAfterSeconds,
  };
  metadata.set(ERROR_KEY, Buffer.from(JSON.stringify(wire)));
  return { code: statusOf[err.kind], details: err.message, metadata };
}

/** An internal failure as a gRPC error, with nothing of the original message. */
export const internalGrpcError = (): Partial<grpc.StatusObject> => ({
  code: grpc.status.INTERNAL,
  details: 'internal error',
});

/**
 * Turns a failed call back into a DomainError: the callee's contract code when it sent one; unreachable or slow
 * peers become `unavailable`; anything else is rethrown as is (an internal error).
 */
export function fromGrpcError(err: grpc.ServiceError): Error {
  const raw = err.metadata?.get(ERROR_KEY)[0];
  const kind = kindOf.get(err.code);
  if (raw && kind) {
    const wire = JSON.parse(Buffer.isBuffer(raw) ? raw.toString('utf8') : raw) as WireError;
    const extra: { details?: FieldIssue[]; retryAfterSeconds?: number } = {};
    if (wire.details) extra.details = wire.details;
    if (wire.retry_after !== undefined) extra.retryAfterSeconds = wire.retry_after;
    return new DomainError(kind, wire.code, wire.message, extra);
  }
  if (
    err.code === grpc.status.UNAVAILABLE ||
    err.code === grpc.status.DEADLINE_EXCEEDED ||
    err.code === grpc.status.CANCELLED
  ) {
    return unavailable();
  }
  return err;
}
