import { z } from 'zod';

/** Response and shared request schemas of the HTTP API (spec/contract.md); the OpenAPI document is built from them. */

const timestamp = z.string().describe('ISO 8601 UTC timestamp with milliseconds');
const nullableTimestamp = timestamp.nullable();

export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      request_id: z.string(),
      details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    }),
  })
  .meta({ id: 'Error' });

export const User = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string(),
    email_verified_at: nullableTimestamp,
    pending_email: z.string().nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'User' });

export const AuthResponse = z
  .object({ access_token: z.string(), token_type: z.literal('Bearer'), user: User, expires_at: nullableTimestamp })
  .meta({ id: 'AuthResponse' });

export const EmailPending = z.object({ status: z.literal('email_pending'), email: z.string() }).meta({ id: 'EmailPending' });

export const EmailCodePending = z
  .object({ status: z.literal('code_pending'), email: z.string(), expires_at: timestamp })
  .meta({ id: 'EmailCodePending' });

export const EmailVerified = z.object({ status: z.literal('email_verified'), user: User }).meta({ id: 'EmailVerified' });

export const PasswordReset = z.object({ status: z.literal('password_reset') }).meta({ id: 'PasswordReset' });

// Request fields (contract §2). The identity service checks the same rules again; these make the 400s and the docs.
export const email = z.string().trim().max(254).regex(/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/, 'must be a valid email address');
export const password = z.string().min(8).max(128);
export const name = z.string().trim().min(1).max(80);
export const token = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be a token from a mailed link');
export const code = z.string().regex(/^\d{6}$/, 'must be exactly 6 digits');

export const Workspace = z
  .object({ id: z.uuid(), name: z.string(), slug: z.string(), avatar_id: z.uuid().nullable(), created_at: timestamp, updated_at: timestamp })
  .meta({ id: 'Workspace' });

export const WorkspaceUser = z
  .object({
    id: z.uuid(),
    workspace_id: z.uuid(),
    user_id: z.uuid(),
    actor_id: z.uuid(),
    role: z.enum(['owner', 'admin', 'member']),
    accepted_at: nullableTimestamp,
    created_at: timestamp,
    updated_at: timestamp,
    user: z.object({ id: z.uuid(), email: z.string(), name: z.string() }),
  })
  .meta({ id: 'WorkspaceUser' });

export const WorkspaceActor = z
  .object({
    id: z.uuid(),
    workspace_id: z.uuid(),
    kind: z.enum(['user', 'agent']),
    user_id: z.uuid().nullable(),
    display_name: z.string(),
    title: z.string().nullable(),
    avatar_id: z.uuid().nullable(),
    managed_by_admins: z.boolean(),
    deactivated_at: nullableTimestamp,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'WorkspaceActor' });

export const AssetDownload = z
  .object({ url: z.string(), expires_at: timestamp, name: z.string(), content_type: z.string(), size_bytes: z.number().int() })
  .meta({ id: 'AssetDownload' });

/** A path or body id: any-case UUID, answered in lowercase; anything else is 400 `invalid_input`. */
export const uuid = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID')
  .transform((v) => v.toLowerCase());

export const Channel = z
  .object({
    id: z.uuid(),
    workspace_id: z.uuid(),
    conversation_id: z.uuid(),
    name: z.string(),
    topic: z.string().nullable(),
    created_by_actor_id: z.uuid(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Channel' });
