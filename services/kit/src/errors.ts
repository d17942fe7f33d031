/** The kinds of failure a domain error can be; the gRPC adapter maps each to one status. */
export type ErrorKind =
  | 'invalid_argument'
  | 'unauthenticated'
  | 'permission_denied'
  | 'not_found'
  | 'already_exists'
  | 'failed_precondition'
  | 'gone'
  | 'resource_exhausted'
  | 'unavailable'
  | 'internal';

/** One field-level problem of a validation error, e.g. `{field: 'body.email', message: 'Invalid email'}`. */
export interface FieldIssue {
  field: string;
  message: string;
}

/** The single error type of domain code: a contract code (spec/contract.md §1), a safe message and optional details. */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  readonly kind: ErrorKind;
  readonly code: string;
  readonly details: FieldIssue[] | undefined;
  /** Seconds a throttled client should wait (rate limits only). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    kind: ErrorKind,
    code: string,
    message: string,
    extra: { details?: FieldIssue[]; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.kind = kind;
    this.code = code;
    this.details = extra.details;
    this.retryAfterSeconds = extra.retryAfterSeconds;
  }
}

/** 400 `invalid_input` with field details. */
export const invalidInput = (details: FieldIssue[], message = 'The request is invalid.') =>
  new DomainError('invalid_argument', 'invalid_input', message, { details });

/** One field rule: where (`body.name`), whether it holds, and what to say when it does not. */
export type FieldCheck = [field: string, ok: boolean, message: string];

/** Throws 400 `invalid_input` listing every failed check, or returns when all hold. */
export function ensure(...checks: FieldCheck[]): void {
  const details: FieldIssue[] = checks.filter(([, ok]) => !ok).map(([field, , message]) => ({ field, message }));
  if (details.length > 0) throw invalidInput(details);
}

/** 400 with a specific contract code. */
export const invalidArgument = (code: string, message: string) => new DomainError('invalid_argument', code, message);

/** 401 with a specific contract code. */
export const unauthenticated = (code: string, message: string) => new DomainError('unauthenticated', code, message);

/** 403 `forbidden` unless another code is given. */
export const forbidden = (message = 'You are not allowed to do this.', code = 'forbidden') =>
  new DomainError('permission_denied', code, message);

/** 404 `not_found` unless another code is given. */
export const notFound = (message = 'Not found.', code = 'not_found') => new DomainError('not_found', code, message);

/** 409 for a uniqueness conflict. */
export const alreadyExists = (code: string, message: string) => new DomainError('already_exists', code, message);

/** 409 for an operation the resource's state forbids. */
export const failedPrecondition = (code: string, message: string) =>
  new DomainError('failed_precondition', code, message);

/** 429 `rate_limited` with the seconds to wait, and optionally which limit was reached. */
export const rateLimited = (retryAfterSeconds: number, details?: FieldIssue[]) =>
  new DomainError('resource_exhausted', 'rate_limited', 'Too many attempts; try again later.', {
    retryAfterSeconds,
    details,
  });

/** 503 `unavailable`: a dependency is down or too slow. */
export const unavailable = (message = 'A dependency is unavailable; try again shortly.') =>
  new DomainError('unavailable', 'unavailable', message);

// Network failures, Postgres connection exceptions (08xxx), shutdown and start-up (57P01-57P03), too many
// connections (53300) and a statement cut by its timeout (57014).
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
]);
const OUTAGE_NAMES = new Set(['KnexTimeoutError', 'MaxRetriesPerRequestError']);
const OUTAGE_MESSAGES =
  /connection terminated|connection is closed|enableOfflineQueue|command timed out|timeout exceeded when trying to connect|client has encountered a connection error|the database system is (starting up|shutting down)/i;

/** Whether an error means a dependency (Postgres, Redis) is down or too slow, rather than a bug: answered 503, not 500. */
export function isDependencyOutage(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  return (
    OUTAGE_CODES.has(code) ||
    code.startsWith('08') ||
    OUTAGE_NAMES.has(String(e.name)) ||
    OUTAGE_MESSAGES.test(typeof e.message === 'string' ? e.message : '')
  );
}

/** Postgres refusing a string (U+0000, or bytes that are not UTF-8) the caller sent: 400, not 500. */
export function isUnstorableText(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '22021' || code === '22P05';
}
