import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { DomainError, forbidden, invalidInput, rateLimited } from './errors.ts';
import { fromGrpcError, toGrpcError } from './grpc-errors.ts';

const roundTrip = (err: DomainError) => {
  const status = toGrpcError(err);
  return {
    status,
    back: fromGrpcError({
      ...new Error(status.details),
      code: status.code!,
      details: status.details!,
      metadata: status.metadata!,
    }),
  };
};

describe(DomainError.name, () => {
  it('travels over gRPC with its status, code, details and retry hint', () => {
    const { status, back } = roundTrip(invalidInput([{ field: 'body.name', message: 'is required' }]));
    expect(status.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(back).toBeInstanceOf(DomainError);
    expect(back).toMatchObject({
      kind: 'invalid_argument',
      code: 'invalid_input',
      details: [{ field: 'body.name', message: 'is required' }],
    });

    const limited = roundTrip(rateLimited(42));
    expect(limited.status.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(limited.back).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 42 });

    expect(roundTrip(forbidden()).status.code).toBe(grpc.status.PERMISSION_DENIED);
  });

  it('turns an unreachable or slow peer into unavailable, and keeps other failures internal', () => {
    const failure = (code: grpc.status) =>
      ({ ...new Error('x'), code, details: 'x', metadata: new grpc.Metadata() }) as grpc.ServiceError;
    expect(fromGrpcError(failure(grpc.status.UNAVAILABLE))).toMatchObject({ code: 'unavailable', kind: 'unavailable' });
    expect(fromGrpcError(failure(grpc.status.DEADLINE_EXCEEDED))).toMatchObject({ code: 'unavailable' });
    expect(fromGrpcError(failure(grpc.status.INTERNAL))).not.toBeInstanceOf(DomainError);
  });
});
