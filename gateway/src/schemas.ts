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

const ids = z.array(z.uuid());

/** Paging `limit` (contract §1): an integer from 1 to 100; the route applies the default of 50. */
export const limit = z
  .string()
  .regex(/^\d{1,3}$/, 'must be an integer from 1 to 100')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be an integer from 1 to 100').max(100, 'must be an integer from 1 to 100'))
  .optional();

/** A query boolean: exactly `true` or `false` (contract §5). */
export const queryBoolean = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((v) => v === 'true')
  .optional();

const page = <T extends z.ZodType>(item: T, id: string) =>
  z.object({ items: z.array(item), next_cursor: z.string().nullable().describe('null on the last page') }).meta({ id });

export const Asset = z
  .object({
    id: z.uuid(),
    created_at: timestamp,
    updated_at: timestamp,
    conversation_id: z.uuid(),
    message_id: z.uuid().nullable(),
    name: z.string(),
    size_bytes: z.number().int(),
    content_type: z.string(),
    status: z.enum(['pending', 'ready']),
    preview_kind: z.enum(['image']).nullable(),
  })
  .meta({ id: 'Asset' });

export const Reaction = z.object({ emoji: z.string(), actor_ids: ids.describe('in reaction order') }).meta({ id: 'Reaction' });

export const Message = z
  .object({
    id: z.uuid().describe('UUIDv7'),
    created_at: timestamp,
    updated_at: timestamp,
    children: z.array(z.object({ type: z.literal('text'), text: z.string() })),
    loading_expires_at: nullableTimestamp,
    saved_at: nullableTimestamp.describe("the caller's own bookmark"),
    reply_count: z.number().int(),
    reply_actor_ids: ids.describe('distinct, in order of first reply'),
    last_reply_at: nullableTimestamp,
    reactions: z.array(Reaction).describe("ordered by each emoji's first reaction"),
    reactions_version: z.number().int(),
    assets: z.array(Asset),
    workspace_id: z.uuid(),
    conversation_id: z.uuid(),
    author_actor_id: z.uuid(),
    body_text: z.string(),
    mentioned_actor_ids: ids,
    parent_message_id: z.uuid().nullable(),
    edited_at: nullableTimestamp,
    deleted_at: nullableTimestamp,
  })
  .meta({ id: 'Message' });

export const MessagePage = page(Message, 'MessagePage');
export const SavedMessagePage = page(Message, 'SavedMessagePage');

export const SavedMessageState = z
  .object({ message_id: z.uuid(), saved: z.boolean(), saved_at: nullableTimestamp })
  .meta({ id: 'SavedMessageState' });

export const MessageReactions = z
  .object({ message_id: z.uuid(), reactions: z.array(Reaction), reactions_version: z.number().int() })
  .meta({ id: 'MessageReactions' });

export const ConversationReadState = z
  .object({
    conversation_id: z.uuid(),
    thread_root_id: z.uuid().nullable(),
    last_read_message_id: z.uuid().nullable(),
    last_read_at: nullableTimestamp,
    unread_count: z.number().int(),
    mention_count: z.number().int(),
    following: z.boolean().nullable().describe('null for a conversation'),
    updated_at: nullableTimestamp,
  })
  .meta({ id: 'ConversationReadState' });

export const Thread = z
  .object({
    id: z.uuid().describe('the root message id'),
    conversation_id: z.uuid(),
    root_message: Message,
    reply_count: z.number().int(),
    last_reply_at: nullableTimestamp,
    following: z.boolean(),
    last_read_message_id: z.uuid().nullable(),
    unread_count: z.number().int(),
    mention_count: z.number().int(),
  })
  .meta({ id: 'Thread' });

export const ThreadPage = page(Thread, 'ThreadPage');
