import { AsyncLocalStorage } from 'node:async_hooks';

/** Who is calling and on behalf of which request; travels from the gateway to every service as gRPC metadata. */
export interface CallContext {
  requestId: string;
  clientIp?: string | undefined;
  userId?: string | undefined;
  sessionId?: string | undefined;
  workspaceId?: string | undefined;
  actorId?: string | undefined;
  role?: string | undefined;
  /** Set when an agent calls with a token (contract §11): its id; then there is no user or session. */
  tokenId?: string | undefined;
}

const fields = {
  requestId: 'x-request-id',
  clientIp: 'x-client-ip',
  userId: 'x-user-id',
  sessionId: 'x-session-id',
  workspaceId: 'x-workspace-id',
  actorId: 'x-actor-id',
  role: 'x-role',
  tokenId: 'x-token-id',
} as const satisfies Record<keyof CallContext, string>;

/** The context as metadata key/value pairs (only the fields that are set). */
export function contextToHeaders(ctx: CallContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, header] of Object.entries(fields)) {
    const value = ctx[key as keyof CallContext];
    if (value) out[header] = value;
  }
  return out;
}

/** Reads the context back from metadata values; `get` returns the first value of a key. */
export function contextFromHeaders(get: (header: string) => string | undefined): CallContext {
  const ctx: CallContext = { requestId: get(fields.requestId) ?? 'none' };
  for (const [key, header] of Object.entries(fields)) {
    if (key === 'requestId') continue;
    const value = get(header);
    if (value) ctx[key as Exclude<keyof CallContext, 'requestId'>] = value;
  }
  return ctx;
}

/** The context of the request being served, for logs and outgoing calls. */
export const requestContext = new AsyncLocalStorage<CallContext>();
