import { z } from 'zod';
import { documentedAs } from './openapi/documented-as.ts';

/** Response and shared request schemas of the HTTP API (spec/contract.md); the OpenAPI document is built from them. */

/** The JSON body a response schema describes: its output side, as the OpenAPI document shows it. */
export type Body<S extends z.ZodType> = z.output<S>;

const timestamp = z.iso.datetime({ precision: 3 }).describe('ISO 8601 UTC timestamp with milliseconds');
const nullableTimestamp = timestamp.nullable();

/** Every error code of the contract (§1), with the HTTP status it is answered with. */
export const errorStatus = {
  invalid_json: 400,
  invalid_input: 400,
  invalid_workspace_header: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  email_not_verified: 401,
  invalid_token: 401,
  invalid_code: 401,
  rate_limited: 429,
  forbidden: 403,
  not_found: 404,
  workspace_not_found: 404,
  account_not_found: 404,
  already_member: 409,
  account_exists: 409,
  invitation_closed: 409,
  channel_name_taken: 409,
  membership_fixed: 409,
  slug_taken: 409,
  message_deleted: 409,
  thread_root_deleted: 409,
  asset_not_ready: 409,
  file_too_large: 400,
  size_mismatch: 400,
  unsupported_image: 400,
  image_too_large: 400,
  owner_protected: 400,
  invalid_role: 400,
  invalid_ownership_target: 400,
  wrong_conversation: 400,
  not_a_channel: 400,
  not_a_root_message: 400,
  invalid_emoji: 400,
  too_many_reactions: 400,
  invalid_signature: 401,
  cursor_expired: 410,
  unavailable: 503,
  internal: 500,
} as const;
export type ErrorCode = keyof typeof errorStatus;

export const ErrorBody = z
  .object({
    error: z.object({
      code: z
        .enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]])
        .describe('Stable, snake_case; the part of the answer to branch on'),
      message: z.string().describe('Human readable; may change'),
      request_id: z.string().min(1).max(128).describe('The `X-Request-Id` of the answer'),
      details: z
        .array(
          z.object({
            field: z
              .string()
              .regex(/^(body|query|path|header)(\.[^.]+)*$/)
              .describe('`<where>.<name>`, nested as `body.items.0.id`'),
            message: z.string(),
          }),
        )
        .optional()
        .describe('Present on every 400 `invalid_input`: each invalid field with its location'),
    }),
  })
  .meta({
    id: 'Error',
    description: 'The body of every non-2xx answer (contract §1)',
    examples: [
      {
        error: {
          code: 'invalid_input',
          message: 'The request is not valid.',
          request_id: '3f1c2a9e-8b7d-4c61-9e0f-2a4b6c8d0e1f',
          details: [{ field: 'body.email', message: 'must be a valid email address' }],
        },
      },
    ],
  });

const ex = {
  user: '0193a4b2-7c1d-7e21-8f3a-1b2c3d4e5f60',
  workspace: '0193a4b2-7c1d-7e21-8f3a-1b2c3d4e5f61',
  workspaceUser: '0193a4b2-7c1d-7e21-8f3a-1b2c3d4e5f62',
  actor: '0193a4b2-7c1d-7e21-8f3a-1b2c3d4e5f63',
  channel: '0193a4b2-7c1d-7e21-8f3a-1b2c3d4e5f64',
  message: '0193a4b2-7c1d-7e21-8f3a-1b2c3d4e5f65',
  reply: '0193a4b2-7c1d-7e21-8f3a-1b2c3d4e5f66',
  asset: '0193a4b2-7c1d-7e21-8f3a-1b2c3d4e5f67',
  avatar: '0193a4b2-7c1d-7e21-8f3a-1b2c3d4e5f68',
  invitation: '0193a4b2-7c1d-7e21-8f3a-1b2c3d4e5f69',
  at: '2026-11-21T18:38:41.008Z',
  later: '2026-11-21T18:40:12.517Z',
} as const;
/** Ids and times the examples of the OpenAPI document share, so that they tell one story. */
export const exampleIds = ex;

// Rules the owning service checks (contract), shown in the OpenAPI document only: the gateway passes these values on
// unchecked, so the service's answer (its code, message and details) stays the only one.
const serviceChecked = <T extends z.ZodType>(schema: T, rule: Record<string, unknown>): T => schema.meta(rule);

const emailOut = z.email().max(254);
const nameOut = z.string().min(1).max(80);

const userExample = {
  id: ex.user,
  email: 'ada@example.org',
  name: 'Ada',
  email_verified_at: ex.at,
  pending_email: null,
  created_at: ex.at,
  updated_at: ex.at,
};

export const User = z
  .object({
    id: z.uuid(),
    email: emailOut.describe('normalized (lowercase)'),
    name: nameOut,
    email_verified_at: nullableTimestamp,
    pending_email: emailOut.nullable().describe('a new address waiting for its confirmation link'),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'User', examples: [userExample] });

export const AuthResponse = z
  .object({
    access_token: z
      .string()
      .min(1)
      .describe('a signed JWT naming the session; send it as `Authorization: Bearer <access_token>`'),
    token_type: z.literal('Bearer'),
    user: User,
    expires_at: nullableTimestamp.describe('null when sessions do not expire (`SESSION_TTL_SECONDS=0`)'),
  })
  .meta({
    id: 'AuthResponse',
    examples: [
      {
        access_token: 'eyJhbGciOiJFUzI1NiJ9.eyJzaWQiOiIuLi4ifQ.c2lnbmF0dXJl',
        token_type: 'Bearer',
        user: userExample,
        expires_at: '2026-12-21T18:38:41.008Z',
      },
    ],
  });

export const EmailPending = z
  .object({ status: z.literal('email_pending'), email: emailOut.describe('normalized (lowercase)') })
  .meta({ id: 'EmailPending', examples: [{ status: 'email_pending', email: 'ada@example.org' }] });

export const EmailCodePending = z
  .object({
    status: z.literal('code_pending'),
    email: emailOut.describe('normalized (lowercase)'),
    expires_at: timestamp.describe('the code lives 10 minutes'),
  })
  .meta({
    id: 'EmailCodePending',
    examples: [{ status: 'code_pending', email: 'ada@example.org', expires_at: ex.later }],
  });

export const EmailVerified = z
  .object({ status: z.literal('email_verified'), user: User })
  .meta({ id: 'EmailVerified', examples: [{ status: 'email_verified', user: userExample }] });

export const PasswordReset = z
  .object({ status: z.literal('password_reset') })
  .meta({ id: 'PasswordReset', examples: [{ status: 'password_reset' }] });

// Request fields of the identity service (contract §2), which checks each of them on every call with the same field
// names (services/identity/src/domain/rules.ts).
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
export const email = serviceChecked(z.string(), { maxLength: 254, pattern: EMAIL.source });
export const password = serviceChecked(z.string(), { minLength: 8, maxLength: 128 });
/** The password of a sign-in: any the account could have. */
export const loginPassword = serviceChecked(z.string(), { minLength: 1, maxLength: 128 });
export const name = serviceChecked(z.string(), { minLength: 1, maxLength: 80 });
export const token = serviceChecked(z.string(), { pattern: '^[A-Za-z0-9_-]{43}$' });
export const code = serviceChecked(z.string(), { pattern: '^\\d{6}$' });
/**
 * An account's address where no service checks its form: adding a member only looks the account up. Identity's rule,
 * checked here so that a malformed address is 400 `invalid_input`, not 404 `account_not_found`.
 */
export const accountEmail = z.string().trim().max(254).regex(EMAIL, 'must be a valid email address');

const SLUG = '^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$';
const CHANNEL_NAME = '^[a-z0-9][a-z0-9_-]{0,79}$';
const MEDIA_TYPE = '^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(\\s*;.*)?$';
const MAX_FILE_BYTES = 10 * 1024 * 1024;

// Request fields the owning service checks (contract §3, §4, §6).
export const workspaceName = serviceChecked(z.string(), {
  minLength: 1,
  maxLength: 80,
  description: '1..80 characters after trimming',
  examples: ['Acme'],
});
export const slug = serviceChecked(z.string(), {
  pattern: SLUG,
  description: '3..40 lowercase letters, digits or inner dashes; unique among all workspaces (409 `slug_taken`)',
  examples: ['acme'],
});
export const assignableRole = serviceChecked(z.string(), {
  enum: ['admin', 'member'],
  description: 'anything else, `owner` included, is 400 `invalid_role`',
});
export const displayName = serviceChecked(z.string(), {
  minLength: 1,
  maxLength: 80,
  description: '1..80 characters after trimming',
});
export const title = serviceChecked(z.string(), {
  maxLength: 120,
  description: 'at most 120 characters; empty after trimming, or null, clears it',
});
export const channelName = serviceChecked(z.string(), {
  pattern: CHANNEL_NAME,
  description: 'unique in the workspace, private channels included (409 `channel_name_taken`)',
  examples: ['general'],
});
export const pickerQuery = serviceChecked(z.string(), {
  minLength: 1,
  maxLength: 80,
  description:
    'keeps the items whose name contains it, case-insensitively: those starting with it first, then the rest, each in the usual order (1..80 characters; empty is 400)',
});
export const topic = serviceChecked(z.string(), { maxLength: 250 });
export const bodyText = serviceChecked(z.string(), {
  maxLength: 40_000,
  description: '1..40,000 characters; empty only when `asset_ids` is not empty',
});
export const editedBodyText = serviceChecked(z.string(), { minLength: 1, maxLength: 40_000 });
export const clientMessageId = serviceChecked(z.string(), {
  minLength: 1,
  maxLength: 64,
  description:
    'extension: a retry with the same value by the same actor in the same conversation within 24 h answers 201 with the original message',
});
export const assetName = serviceChecked(z.string(), {
  minLength: 1,
  maxLength: 255,
  description: '1..255 characters after trimming, no control characters',
});
export const contentType = serviceChecked(z.string(), {
  maxLength: 255,
  pattern: MEDIA_TYPE,
  description: 'a media type such as `image/png`',
});
export const sizeBytes = serviceChecked(z.number().int(), {
  minimum: 1,
  maximum: MAX_FILE_BYTES,
  description: 'the exact length of the file to upload; outside 1..10,485,760 is 400 `file_too_large`',
});
export const emoji = serviceChecked(z.string(), {
  minLength: 1,
  description:
    'exactly one emoji, URL-encoded (a single RGI emoji; ZWJ sequences, modifiers, flags and keycaps included); else 400 `invalid_emoji`',
  examples: ['%F0%9F%91%8D'],
});
/** The maximum size of an uploaded file (asset content, avatars). */
export const maxFileBytes = MAX_FILE_BYTES;

export const Workspace = z
  .object({
    id: z.uuid(),
    name: nameOut,
    slug: z.string().regex(new RegExp(SLUG)),
    avatar_id: z.uuid().nullable().describe('the current photo (256 × 256 WebP); changes on every upload'),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({
    id: 'Workspace',
    examples: [{ id: ex.workspace, name: 'Acme', slug: 'acme', avatar_id: null, created_at: ex.at, updated_at: ex.at }],
  });

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
    user: z.object({ id: z.uuid(), email: emailOut, name: nameOut }),
  })
  .meta({
    id: 'WorkspaceUser',
    examples: [
      {
        id: ex.workspaceUser,
        workspace_id: ex.workspace,
        user_id: ex.user,
        actor_id: ex.actor,
        role: 'owner',
        accepted_at: ex.at,
        created_at: ex.at,
        updated_at: ex.at,
        user: { id: ex.user, email: 'ada@example.org', name: 'Ada' },
      },
    ],
  });

export const WorkspaceActor = z
  .object({
    id: z.uuid(),
    workspace_id: z.uuid(),
    kind: z.enum(['user', 'agent']),
    user_id: z.uuid().nullable().describe('null for agents'),
    display_name: z.string().min(1).max(80),
    title: z.string().max(120).nullable(),
    avatar_id: z.uuid().nullable(),
    managed_by_admins: z.boolean(),
    deactivated_at: nullableTimestamp.describe(
      'set when the member was removed; the actor stays as the author of its messages',
    ),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({
    id: 'WorkspaceActor',
    examples: [
      {
        id: ex.actor,
        workspace_id: ex.workspace,
        kind: 'user',
        user_id: ex.user,
        display_name: 'Ada',
        title: 'Engineer',
        avatar_id: null,
        managed_by_admins: false,
        deactivated_at: null,
        created_at: ex.at,
        updated_at: ex.at,
      },
    ],
  });

export const tokenName = serviceChecked(z.string(), {
  minLength: 1,
  maxLength: 80,
  description: '1..80 characters after trimming',
});

export const Token = z
  .object({
    id: z.uuid(),
    kind: z
      .enum(['conversation', 'workspace'])
      .describe(
        '`conversation`: for posting into one conversation; `workspace`: for the member API as the agent (contract §11)',
      ),
    workspace_id: z.uuid(),
    conversation_id: z.uuid().nullable().describe('null for a workspace token'),
    actor_id: z.uuid().describe('the agent the token acts as'),
    name: z.string().min(1).max(80),
    token_prefix: z.string().length(12).describe('the first 12 characters of the secret, to recognise it'),
    created_by_actor_id: z.uuid(),
    created_at: timestamp,
    last_used_at: nullableTimestamp.describe('exact to the minute'),
    revoked_at: nullableTimestamp,
    token: z
      .string()
      .regex(/^wms_(ct|wt)_[A-Za-z0-9_-]{43}$/)
      .nullable()
      .describe('the secret, in the answer that creates the token only (null in listings); only its SHA-256 is kept'),
  })
  .meta({
    id: 'Token',
    examples: [
      {
        id: '0193a4b2-7c1d-7e21-8f3a-1b2c3d4e5f69',
        kind: 'workspace',
        workspace_id: ex.workspace,
        conversation_id: null,
        actor_id: ex.actor,
        name: 'Build bot',
        token_prefix: 'wms_wt_q3Jx9',
        created_by_actor_id: ex.actor,
        created_at: ex.at,
        last_used_at: null,
        revoked_at: null,
        token: 'wms_wt_q3Jx9fK2mZpL0vT8sYwQ4bN6cR1dH5eG7aU3iO9xE2k',
      },
    ],
  });

export const AssetDownload = z
  .object({
    url: z.url().describe('absolute; serves the exact bytes to anyone holding it, without headers, until `expires_at`'),
    expires_at: timestamp.describe('five minutes after the answer'),
    name: z.string(),
    content_type: z.string(),
    size_bytes: z.number().int().min(0).max(MAX_FILE_BYTES),
  })
  .meta({
    id: 'AssetDownload',
    examples: [
      {
        url: 'http://localhost:8080/storage/assets/0193a4b2-7c1d-7e21-8f3a-1b2c3d4e5f67?expires=1795286621&type=image%2Fpng&name=diagram.png&disposition=attachment&sig=9f8e',
        expires_at: ex.later,
        name: 'diagram.png',
        content_type: 'image/png',
        size_bytes: 48213,
      },
    ],
  });

/**
 * What an id in a request names. The OpenAPI document carries it on every such place (`x-wms-names`): clients read
 * which resource an id must be, and the access-wall test fills each place of every operation by it, so a new route's
 * ids are tested as they are added. A `cursor` is a position in a listing, compared by value and looked up nowhere.
 */
type IdNames =
  'conversation' | 'message' | 'asset' | 'actor' | 'workspace_user' | 'token' | 'avatar' | 'invitation' | 'cursor';
const namesThe = (names: IdNames | 'realtime_channel') => ({ 'x-wms-names': names });

/** A path, query or body id naming `names`: any-case UUID, answered in lowercase; anything else is 400 `invalid_input`. */
export const id = (names: IdNames) =>
  z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID')
    .transform((v) => v.toLowerCase())
    .register(documentedAs, {
      type: 'string',
      format: 'uuid',
      pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
      ...namesThe(names),
    });

/** A path id naming `names` that is any string (contract §1's read-state paths): a malformed one is simply not found. */
export const lenientId = (names: IdNames) =>
  z
    .string()
    .transform((v) => v.toLowerCase())
    .meta(namesThe(names));

export const channelKind = z.enum(['public', 'private', 'direct']);

export const Channel = z
  .object({
    id: z.uuid(),
    workspace_id: z.uuid(),
    conversation_id: z.uuid().describe('equals `id`: every `{conversation_id}` route accepts a channel id'),
    kind: channelKind.describe(
      '`public`: every member of the workspace reads it; `private` and `direct`: only its members (to anyone else it does not exist)',
    ),
    name: z.string().regex(new RegExp(CHANNEL_NAME)).nullable().describe('null for a direct conversation'),
    topic: z.string().max(250).nullable(),
    created_by_actor_id: z.uuid(),
    member_count: z.number().int().min(0),
    is_member: z.boolean().describe('whether the caller is a member'),
    participant_actor_ids: z.array(z.uuid()).max(9).describe('direct: every participant, in id order; channels: empty'),
    last_message_at: nullableTimestamp.describe('the newest top-level message or reply; null when none'),
    archived_at: nullableTimestamp.describe('always null for now'),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({
    id: 'Channel',
    examples: [
      {
        id: ex.channel,
        workspace_id: ex.workspace,
        conversation_id: ex.channel,
        kind: 'public',
        name: 'general',
        topic: 'Everything else',
        created_by_actor_id: ex.actor,
        member_count: 12,
        is_member: true,
        participant_actor_ids: [],
        last_message_at: ex.later,
        archived_at: null,
        created_at: ex.at,
        updated_at: ex.at,
      },
    ],
  });

export const ChannelMember = z
  .object({
    channel_id: z.uuid(),
    actor_id: z.uuid(),
    added_by_actor_id: z
      .uuid()
      .nullable()
      .describe('null for a member who joined by itself (the creator, a poster, a PUT of its own actor)'),
    joined_at: timestamp,
  })
  .meta({
    id: 'ChannelMember',
    examples: [{ channel_id: ex.channel, actor_id: ex.actor, added_by_actor_id: null, joined_at: ex.at }],
  });

const ids = z.array(z.uuid());

/** Paging `limit` (contract §1): an integer from 1 to 100; the route applies the default of 50. */
export const limit = z
  .string()
  .regex(/^\d{1,3}$/, 'must be an integer from 1 to 100')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be an integer from 1 to 100').max(100, 'must be an integer from 1 to 100'))
  .optional()
  .register(documentedAs, {
    type: 'integer',
    minimum: 1,
    maximum: 100,
    default: 50,
    description: 'page size; anything else is 400 `invalid_input`',
  });

/** A query boolean: exactly `true` or `false` (contract §5). */
export const queryBoolean = (fallback: boolean, description: string) =>
  z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((v) => v === 'true')
    .optional()
    .register(documentedAs, {
      type: 'boolean',
      default: fallback,
      description: `${description}; exactly \`true\` or \`false\` (else 400 \`invalid_input\`)`,
    });

const page = <T extends z.ZodType>(item: T, id: string, example: unknown) =>
  z
    .object({
      items: z.array(item),
      next_cursor: z
        .string()
        .nullable()
        .describe('null exactly when no further item exists; else pass it as `cursor` for the next page'),
    })
    .meta({ id, examples: [{ items: [example], next_cursor: null }] });

const assetExample = {
  id: ex.asset,
  created_at: ex.at,
  updated_at: ex.later,
  conversation_id: ex.channel,
  message_id: ex.message,
  name: 'diagram.png',
  size_bytes: 48213,
  content_type: 'image/png',
  status: 'ready',
  preview_kind: 'image',
};

export const Asset = z
  .object({
    id: z.uuid(),
    created_at: timestamp,
    updated_at: timestamp,
    conversation_id: z.uuid(),
    message_id: z.uuid().nullable().describe('the message it is attached to'),
    name: z.string().min(1).max(255),
    size_bytes: z.number().int().min(1).max(MAX_FILE_BYTES),
    content_type: z.string().describe('media type'),
    status: z
      .enum(['pending', 'ready'])
      .describe('`pending` until its content is uploaded; a ready asset never changes'),
    preview_kind: z
      .enum(['image'])
      .nullable()
      .describe('`image` for image/png, image/jpeg, image/gif and image/webp; else null'),
  })
  .meta({ id: 'Asset', examples: [assetExample] });

export const Reaction = z
  .object({ emoji: z.string().min(1).describe('one Unicode emoji'), actor_ids: ids.describe('in reaction order') })
  .meta({ id: 'Reaction', examples: [{ emoji: '👍', actor_ids: [ex.actor] }] });

// A message's body as nodes (contract §13).
const plainStyle = { bold: false, italic: false, strike: false, code: false };
const TextStyle = z
  .object({ bold: z.boolean(), italic: z.boolean(), strike: z.boolean(), code: z.boolean() })
  .describe('emphasis (`italic`), strong (`bold`), `~~` (`strike`) and inline code (`code`); nesting sets several');
const nodeText = z.string().max(40_000);
export const MessageChild = z
  .discriminatedUnion('type', [
    z
      .object({ type: z.literal('text'), text: nodeText, style: TextStyle })
      .meta({ id: 'TextNode', description: 'a run of text; line breaks as `\\n`, paragraphs separated by `\\n\\n`' }),
    z
      .object({ type: z.literal('link'), text: nodeText, url: z.string(), style: TextStyle })
      .meta({ id: 'LinkNode', description: 'an `http`, `https` or `mailto` link: its text and URL' }),
    z
      .object({ type: z.literal('mention'), text: nodeText, actor_id: z.uuid() })
      .meta({ id: 'MentionNode', description: '`<@actor_id>` of an actor of the workspace: `@` and its display name' }),
    z
      .object({ type: z.literal('code_block'), text: nodeText, language: z.string().nullable() })
      .meta({ id: 'CodeBlockNode', description: "fenced or indented code; `language` the fence's info word, or null" }),
    z
      .object({ type: z.literal('quote'), text: nodeText, style: TextStyle })
      .meta({ id: 'QuoteNode', description: 'a run of text inside a block quote' }),
  ])
  .meta({
    id: 'MessageChild',
    examples: [
      { type: 'text', text: 'See ', style: plainStyle },
      { type: 'link', text: 'the docs', url: 'https://example.org/docs', style: { ...plainStyle, bold: true } },
      { type: 'mention', text: '@Ada', actor_id: ex.actor },
      { type: 'code_block', text: 'pnpm test', language: 'sh' },
      { type: 'quote', text: 'ship it', style: plainStyle },
    ],
  });

const messageExample = {
  id: ex.message,
  created_at: ex.at,
  updated_at: ex.later,
  children: [{ type: 'text', text: 'The new diagram is up.', style: plainStyle }],
  loading_expires_at: null,
  saved_at: null,
  reply_count: 1,
  reply_actor_ids: [ex.actor],
  last_reply_at: ex.later,
  reactions: [{ emoji: '👍', actor_ids: [ex.actor] }],
  reactions_version: 1,
  assets: [assetExample],
  workspace_id: ex.workspace,
  conversation_id: ex.channel,
  author_actor_id: ex.actor,
  body_text: 'The new diagram is up.',
  mentioned_actor_ids: [],
  parent_message_id: null,
  edited_at: null,
  deleted_at: null,
};

export const Message = z
  .object({
    id: z.uuid().describe('UUIDv7: ordering by id is ordering by creation time'),
    created_at: timestamp,
    updated_at: timestamp,
    children: z
      .array(MessageChild)
      .describe(
        '`body_text` as nodes (contract §13), in text order: joining their `text` gives the message as a reader sees it; `[]` when `body_text` is empty',
      ),
    loading_expires_at: nullableTimestamp.describe(
      '`created_at` + 5 minutes for a message created with `loading: true`, until its first edit',
    ),
    saved_at: nullableTimestamp.describe("the caller's own bookmark"),
    reply_count: z.number().int().min(0),
    reply_actor_ids: ids.describe('distinct, in order of first reply'),
    last_reply_at: nullableTimestamp,
    reactions: z.array(Reaction).max(50).describe("ordered by each emoji's first reaction"),
    reactions_version: z.number().int().min(0).describe('starts at 0, one more on every change'),
    assets: z.array(Asset).max(10).describe('the attached assets'),
    workspace_id: z.uuid(),
    conversation_id: z.uuid(),
    author_actor_id: z.uuid(),
    body_text: z.string().max(40_000).describe('`""` once deleted'),
    mentioned_actor_ids: ids.max(50),
    parent_message_id: z.uuid().nullable().describe('set on replies: the thread root'),
    edited_at: nullableTimestamp,
    deleted_at: nullableTimestamp.describe(
      'a deleted message stays as a placeholder: text, mentions, assets and reactions emptied',
    ),
  })
  .meta({ id: 'Message', examples: [messageExample] });

export const MessagePage = page(Message, 'MessagePage', messageExample);

const versionExample = {
  body_text: 'The new diagram is up.',
  children: [{ type: 'text', text: 'The new diagram is up.', style: plainStyle }],
  mentioned_actor_ids: [],
  written_at: ex.at,
};
export const MessageHistory = z
  .array(
    z
      .object({
        body_text: z.string().max(40_000),
        children: z.array(MessageChild).describe('`body_text` as nodes, as when this text was written'),
        mentioned_actor_ids: ids.max(50),
        written_at: timestamp.describe('`created_at` for the first text, then the `edited_at` of each edit'),
      })
      .meta({ id: 'MessageVersion', examples: [versionExample] }),
  )
  .max(100)
  .describe('every text the message has had (at most the last 100), oldest first, the current one last')
  .meta({
    id: 'MessageHistory',
    examples: [
      [
        versionExample,
        {
          body_text: 'The new diagram is up (v2).',
          children: [{ type: 'text', text: 'The new diagram is up (v2).', style: plainStyle }],
          mentioned_actor_ids: [],
          written_at: ex.later,
        },
      ],
    ],
  });
export const SavedMessagePage = page(Message, 'SavedMessagePage', { ...messageExample, saved_at: ex.later });

export const SavedMessageState = z
  .object({ message_id: z.uuid(), saved: z.boolean(), saved_at: nullableTimestamp })
  .meta({ id: 'SavedMessageState', examples: [{ message_id: ex.message, saved: true, saved_at: ex.later }] });

export const MessageReactions = z
  .object({ message_id: z.uuid(), reactions: z.array(Reaction).max(50), reactions_version: z.number().int().min(0) })
  .meta({
    id: 'MessageReactions',
    examples: [{ message_id: ex.message, reactions: [{ emoji: '👍', actor_ids: [ex.actor] }], reactions_version: 1 }],
  });

export const ConversationReadState = z
  .object({
    conversation_id: z.uuid(),
    thread_root_id: z.uuid().nullable(),
    last_read_message_id: z.uuid().nullable(),
    last_read_at: nullableTimestamp,
    unread_count: z
      .number()
      .int()
      .min(0)
      .describe("messages after `last_read_message_id` that are neither deleted nor the caller's own"),
    mention_count: z.number().int().min(0).describe('those of them that mention the caller'),
    following: z.boolean().nullable().describe('null for a conversation'),
    updated_at: nullableTimestamp,
  })
  .meta({
    id: 'ConversationReadState',
    examples: [
      {
        conversation_id: ex.channel,
        thread_root_id: null,
        last_read_message_id: ex.message,
        last_read_at: ex.later,
        unread_count: 0,
        mention_count: 0,
        following: null,
        updated_at: ex.later,
      },
    ],
  });

export const Thread = z
  .object({
    id: z.uuid().describe('the root message id'),
    conversation_id: z.uuid(),
    root_message: Message,
    reply_count: z.number().int().min(1),
    last_reply_at: nullableTimestamp,
    following: z.boolean(),
    last_read_message_id: z.uuid().nullable(),
    unread_count: z.number().int().min(0),
    mention_count: z.number().int().min(0),
  })
  .meta({ id: 'Thread' });

const threadExample = {
  id: ex.message,
  conversation_id: ex.channel,
  root_message: messageExample,
  reply_count: 1,
  last_reply_at: ex.later,
  following: true,
  last_read_message_id: null,
  unread_count: 1,
  mention_count: 0,
};
export const ThreadPage = page(Thread, 'ThreadPage', threadExample);

export const SearchHit = z
  .object({
    message: Message,
    highlights: z
      .array(z.object({ start: z.number().int().min(0), end: z.number().int().min(1) }))
      .describe(
        'one span per occurrence in `message.body_text` of a word the query matched, as UTF-16 code unit offsets (`end` exclusive), ordered by `start`',
      ),
  })
  .meta({ id: 'SearchHit' });
export const SearchPage = page(SearchHit, 'SearchPage', {
  message: messageExample,
  highlights: [{ start: 8, end: 15 }],
});

export const ChannelMemberPage = page(ChannelMember, 'ChannelMemberPage', {
  channel_id: ex.channel,
  actor_id: ex.actor,
  added_by_actor_id: null,
  joined_at: ex.at,
});

export const ConversationSummary = z
  .object({ conversation: Channel, read_state: ConversationReadState })
  .meta({ id: 'ConversationSummary', description: "a conversation of the caller with the caller's read state of it" });
const firstExample = (schema: z.ZodType) => (schema.meta()?.examples as unknown[] | undefined)?.[0];
export const ConversationPage = page(ConversationSummary, 'ConversationPage', {
  conversation: firstExample(Channel),
  read_state: firstExample(ConversationReadState),
});

// Realtime (contract §7): the provider speaks the Pusher protocol; these are the gateway's side of it.

export const RealtimeConfiguration = z
  .object({
    provider: z.literal('pusher'),
    app_key: z.string().min(1),
    cluster: z
      .string()
      .min(1)
      .describe("the provider's cluster; pass it to the client library (a self-hosted provider ignores it)"),
    ws_host: z.string().min(1),
    ws_port: z.number().int().min(1).max(65535),
    wss_port: z.number().int().min(1).max(65535),
    ws_path: z
      .string()
      .describe(
        'the websocket path prefix, `/realtime/ws` when the gateway serves a self-hosted provider; "" for none',
      ),
    force_tls: z.boolean(),
    channel_authorization_endpoint: z.literal('/realtime/authorize'),
    user_authentication_endpoint: z.literal('/realtime/authenticate'),
    channels: z
      .object({
        workspace: z.string().describe("`private-workspace-<workspace_id>`: the workspace's events"),
        presence: z.string().describe('`presence-workspace-<workspace_id>`: who is online (at most 100 members)'),
        actor: z
          .string()
          .describe("`private-actor-<actor_id>`: the caller's own events; being subscribed makes it online"),
      })
      .describe("the caller's channels; conversations are `private-conversation-<conversation_id>`"),
  })
  .meta({
    id: 'RealtimeConfiguration',
    examples: [
      {
        provider: 'pusher',
        app_key: 'wms-3f9c1a7e52b04d68e1c2',
        cluster: 'mt1',
        ws_host: 'localhost',
        ws_port: 8080,
        wss_port: 8080,
        ws_path: '/realtime/ws',
        force_tls: false,
        channel_authorization_endpoint: '/realtime/authorize',
        user_authentication_endpoint: '/realtime/authenticate',
        channels: {
          workspace: `private-workspace-${ex.workspace}`,
          presence: `presence-workspace-${ex.workspace}`,
          actor: `private-actor-${ex.actor}`,
        },
      },
    ],
  });

const SOCKET_ID = '^\\d+\\.\\d+$';
/** The client library's socket id (pusher-js's `socket_id`), checked by the realtime service. */
export const socketId = serviceChecked(z.string(), {
  pattern: SOCKET_ID,
  description: "the connection's socket id, e.g. `1234.5678`; anything else is 400 `invalid_input`",
});
export const realtimeChannelName = serviceChecked(z.string(), {
  ...namesThe('realtime_channel'),
  minLength: 1,
  maxLength: 200,
  description:
    "one of the caller's channels: its workspace's two, `private-conversation-<id>` of a conversation of this workspace, or its own actor channel; anything else is 403 `forbidden`",
});

export const RealtimeAuthorization = z
  .object({
    auth: z.string().min(1).describe('`<app_key>:<signature>`, as the client library expects'),
    channel_data: z
      .string()
      .nullable()
      .describe(
        'presence channels only: `{"user_id": <actor_id>, "user_info": {"display_name", "avatar_id"}}` as JSON text; else null',
      ),
  })
  .meta({
    id: 'RealtimeAuthorization',
    examples: [
      {
        auth: 'wms-3f9c1a7e52b04d68e1c2:9a1f0c4be2d7a8b6c3e5f7091d2b4a6c8e0f1a3b5c7d9e1f2a4b6c8d0e2f4a6',
        channel_data: null,
      },
    ],
  });

export const RealtimeUserAuthorization = z
  .object({
    auth: z.string().min(1).describe('`<app_key>:<signature>`, as the client library expects'),
    user_data: z.string().min(1).describe("JSON text whose `id` is the caller's actor id"),
  })
  .meta({
    id: 'RealtimeUserAuthorization',
    examples: [
      {
        auth: 'wms-3f9c1a7e52b04d68e1c2:0b2d4f6a8c1e3a5b7d9f0e2c4a6b8d1f3e5a7c9b0d2f4e6a8c1b3d5f7e9a0c2',
        user_data: `{"id":"${ex.actor}"}`,
      },
    ],
  });

export const ActorPresence = z
  .object({
    actor_id: z.uuid(),
    status: z.literal('online'),
    since: timestamp.describe('when the provider first reported it online'),
  })
  .meta({ id: 'ActorPresence', examples: [{ actor_id: ex.actor, status: 'online', since: ex.at }] });

export const ActorPresenceList = z
  .array(ActorPresence)
  .describe(
    "the workspace's actors online now: those subscribed to their actor channel or members of the presence channel",
  );

/**
 * A provider webhook as Pusher and Soketi send it (only documented: the body is passed on as its exact bytes, which
 * the signature covers).
 */
export const PusherWebhook = z
  .object({
    time_ms: z.number().int(),
    events: z.array(
      z.object({
        name: z
          .string()
          .describe('`channel_occupied`, `channel_vacated`, `member_added` or `member_removed`; others are ignored'),
        channel: z.string(),
        user_id: z.string().optional().describe('member events'),
      }),
    ),
  })
  .meta({
    id: 'PusherWebhook',
    examples: [
      { time_ms: 1795286535117, events: [{ name: 'channel_occupied', channel: `private-actor-${ex.actor}` }] },
    ],
  });

/** A catch-up cursor (an event's `cursor`, or `next_cursor`), checked by the realtime service. */
export const eventCursor = serviceChecked(z.string(), {
  pattern: '^(0|[1-9][0-9]{0,17})$',
  description:
    'the `cursor` of the last event seen, or a `next_cursor`; without it, no events and the cursor to start from. Malformed is 400, expired (older than 24 hours) 410 `cursor_expired`',
});

export const DeliveredEvent = z
  .object({
    cursor: z.string().describe('pass it as `after` to continue after this event'),
    channel: z.string(),
    event: z.string().describe('the event name, e.g. `message.created`'),
    data: z
      .record(z.string(), z.unknown())
      .describe(
        'the payload as it was triggered, `event_id` included (a reference with `truncated: true` when it was over 10 KB)',
      ),
  })
  .meta({ id: 'DeliveredEvent' });

export const EventPage = z
  .object({
    items: z.array(DeliveredEvent).describe('oldest first: the events of channels the caller could subscribe to'),
    next_cursor: z
      .string()
      .describe(
        "where to continue: the last item's cursor, the newest event's (yours or not) when the page holds everything up to it, or past events of conversations you may not read (left out, so a page can hold fewer than `limit` items); you have caught up when it comes back equal to the `after` you sent",
      ),
  })
  .meta({
    id: 'EventPage',
    examples: [
      {
        items: [
          {
            cursor: '1043',
            channel: `private-workspace-${ex.workspace}`,
            event: 'channel.created',
            data: { event_id: '0193a4b2-7c1d-7e21-8f3a-1b2c3d4e5f69', channel: { id: ex.channel, name: 'general' } },
          },
        ],
        next_cursor: '1043',
      },
    ],
  });

// Invitations (contract §12).
export const invitationStatus = z.enum(['pending', 'accepted', 'declined', 'revoked', 'expired']);

const invitationExample = {
  id: ex.invitation,
  workspace_id: ex.workspace,
  email: 'grace@example.org',
  role: 'member',
  status: 'pending',
  invited_by_actor_id: ex.actor,
  workspace_user_id: null,
  expires_at: '2026-11-28T18:38:41.008Z',
  created_at: ex.at,
  updated_at: ex.at,
};

export const Invitation = z
  .object({
    id: z.uuid(),
    workspace_id: z.uuid(),
    email: emailOut.describe('normalized (lowercase)'),
    role: z.enum(['admin', 'member']),
    status: invitationStatus.describe('`expired` from `expires_at` on, unless answered or revoked before'),
    invited_by_actor_id: z.uuid().describe('who (re)sent it last'),
    workspace_user_id: z.uuid().nullable().describe('the membership it was accepted into; null until then'),
    expires_at: timestamp.describe('7 days after its last (re)sending'),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Invitation', examples: [invitationExample] });

export const InvitationPage = page(Invitation, 'InvitationPage', invitationExample);

export const ReceivedInvitation = z
  .object({
    invitation: Invitation,
    workspace: z.object({
      id: z.uuid(),
      name: nameOut,
      slug: z.string().regex(new RegExp(SLUG)),
      avatar_id: z.uuid().nullable(),
    }),
    invited_by: z.object({ display_name: z.string(), avatar_id: z.uuid().nullable() }),
  })
  .meta({
    id: 'ReceivedInvitation',
    examples: [
      {
        invitation: invitationExample,
        workspace: { id: ex.workspace, name: 'Acme', slug: 'acme', avatar_id: null },
        invited_by: { display_name: 'Ada', avatar_id: null },
      },
    ],
  });
