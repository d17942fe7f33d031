import { z } from 'zod';
import type { Route } from '../routes/route.ts';
import { type ErrorCode, ErrorBody, errorStatus } from '../schemas.ts';
import { documentedAs } from './documented-as.ts';

type JsonSchema = Record<string, unknown>;

const statusDescriptions: Record<number, string> = {
  400: 'Invalid input',
  401: 'Missing, invalid, expired or revoked credentials',
  403: 'Not allowed',
  404: 'Not found or not accessible',
  409: 'Conflicts with the current state',
  410: 'No longer available',
  429: 'Too many attempts; `Retry-After` says how many seconds to wait',
  500: 'Internal error (the message is scrubbed; the request id finds the log)',
  503: 'A service the gateway depends on is unavailable or did not answer in time',
};

const codeMeanings: Record<ErrorCode, string> = {
  invalid_json: 'the body is not valid JSON',
  invalid_input: 'a path, query, header or body value is malformed; `details` lists each',
  invalid_workspace_header: '`X-Workspace-Id` is missing or not a UUID',
  unauthenticated: 'no valid session token',
  invalid_credentials: 'wrong email or password',
  email_not_verified: 'the right password, but the address is not confirmed yet',
  invalid_token: 'the link is unknown, expired or used',
  invalid_code: 'the code is wrong, expired or exhausted',
  rate_limited: 'too many attempts',
  forbidden: 'the caller lacks the role or ownership',
  not_found: 'the resource does not exist here',
  workspace_not_found: 'the workspace does not exist or the caller is not an accepted member',
  account_not_found: 'no account has this address',
  already_member: 'the account already belongs to the workspace',
  channel_name_taken: 'the workspace has a channel of this name (private ones included)',
  membership_fixed: "a direct conversation's participants cannot change",
  not_a_channel: 'a direct conversation has no name or topic',
  slug_taken: 'a workspace (deleted ones included) has this slug',
  message_deleted: 'the message is deleted',
  thread_root_deleted: 'the thread root is deleted',
  asset_not_ready: 'the asset content is not uploaded yet',
  file_too_large: 'over 10 MiB (or a reserved size outside 1..10,485,760)',
  size_mismatch: 'the upload is not the reserved size',
  unsupported_image: 'not a JPG, PNG, WebP or GIF',
  image_too_large: 'over 40,000,000 pixels',
  owner_protected: 'the owner can be neither removed nor given another role',
  invalid_role: 'the role is neither `admin` nor `member`',
  invalid_ownership_target: 'the target is not another accepted member of this workspace',
  wrong_conversation: 'the message belongs to another conversation or thread',
  not_a_root_message: 'replies go under a top-level message',
  invalid_emoji: 'not exactly one emoji',
  too_many_reactions: 'the message already holds 50 distinct emoji',
  invalid_signature: 'the webhook signature does not verify',
  cursor_expired: 'the events after this cursor are no longer kept; reload instead of catching up',
  unavailable: 'a dependency is down or timed out',
  internal: 'an unexpected failure',
};

/** The contract codes a route can answer: those every route of its kind shares, and its own. */
export function routeErrorCodes(r: Route): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  // Any caller may come with a token (contract §11): over its rate (429), or where its kind may not go (403).
  if (r.auth !== 'none') ['unauthenticated', 'rate_limited', 'forbidden'].forEach((c) => codes.add(c as ErrorCode));
  if (r.auth === 'workspace')
    ['invalid_workspace_header', 'workspace_not_found'].forEach((c) => codes.add(c as ErrorCode));
  if (r.body) ['invalid_json', 'invalid_input'].forEach((c) => codes.add(c as ErrorCode));
  if (r.rawBody) codes.add('invalid_input');
  if (r.params || r.query) codes.add('invalid_input');
  if (r.upload) ['invalid_input', 'file_too_large'].forEach((c) => codes.add(c as ErrorCode));
  for (const c of r.codes ?? []) codes.add(c);
  codes.add('internal');
  codes.add('unavailable');
  return [...codes];
}

/** Express path `/a/:id/*key` as an OpenAPI path `/a/{id}/{key}`. */
export const openApiPath = (path: string) => path.replace(/[:*]([A-Za-z_]+)/g, '{$1}');

const requestIdHeader = {
  description:
    "The client's `X-Request-Id` when it sent one of 1..128 characters from `[A-Za-z0-9._:-]`, else a new UUID",
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
};
const retryAfterHeader = {
  description: 'Seconds to wait before the next attempt',
  required: true,
  schema: { type: 'integer', minimum: 1 },
};

const tagDescriptions: Record<string, string> = {
  Health: 'Health, readiness, metrics and this description',
  Auth: 'Accounts and sessions (contract §2); throttled per address and client IP',
  Users: 'The signed-in user',
  Workspaces: 'Workspaces, their settings and photo (contract §3)',
  'Workspace users': 'Members and their roles',
  'Workspace actors': 'Profiles members and agents act through',
  Tokens:
    'Integration credentials (contract §11): conversation tokens post into one conversation, workspace tokens let an agent use every member route; owners and admins make, list and revoke them',
  Channels: 'Channels; a channel is addressed as a conversation (contract §4)',
  Messages: 'Messages, threads, reactions and bookmarks',
  'Saved messages': "The caller's private bookmarks",
  'Read state and threads': 'Per-user read state, thread subscriptions and the thread inbox (contract §5)',
  Search: 'Full-text search of the messages the caller may read, with highlights (contract §10)',
  Assets: 'Attachments: reserve, upload, download (contract §6)',
  Downloads: 'Signed download URLs of the filesystem storage driver',
  Realtime:
    'Realtime provider access (Pusher protocol), presence, provider webhooks and catch-up of missed events (contract §7)',
};

/**
 * Builds the OpenAPI 3.1 document from the route table, so every route is described by the same schemas that
 * validate it. Named schemas (zod `.meta({id})`) land in `components.schemas`; rules a service checks are carried as
 * metadata on the request schemas, and `documentedAs` replaces a schema whose zod input is not what clients send.
 */
export function buildOpenApi(routes: Route[], info: { title: string; version: string }) {
  const components: Record<string, JsonSchema> = {};
  const convert = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const {
      $defs,
      $schema: _,
      ...root
    } = z.toJSONSchema(schema, {
      io,
      target: 'draft-2020-12',
      unrepresentable: 'throw',
      override: ({ zodSchema, jsonSchema }) => {
        const replacement = documentedAs.get(zodSchema as unknown as z.ZodType);
        if (!replacement) return;
        for (const key of Object.keys(jsonSchema)) delete (jsonSchema as JsonSchema)[key];
        Object.assign(jsonSchema, replacement);
      },
    }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    const toComponents = (json: unknown) =>
      JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
    for (const [name, def] of Object.entries($defs ?? {})) {
      const converted = toComponents(def);
      if (components[name] && JSON.stringify(components[name]) !== JSON.stringify(converted)) {
        throw new Error(`Two different schemas are named ${name} (is a named schema used both as input and output?)`);
      }
      components[name] = converted;
    }
    return toComponents(root);
  };
  const errorRef = convert(ErrorBody, 'output');
  // zod leaves out the examples of a schema with transforms in its input form (they are output values); the request
  // examples here are written as clients send them, so they are put back.
  const requestSchema = (schema: z.ZodType): JsonSchema => {
    const json = convert(schema, 'input');
    const examples = z.globalRegistry.get(schema)?.examples;
    return examples && !json.examples ? { ...json, examples } : json;
  };
  /** The Error body with `code` narrowed to the codes this answer can carry. */
  const errorSchema = (codes: ErrorCode[]): JsonSchema => ({
    allOf: [errorRef, { properties: { error: { properties: { code: { enum: codes } } } } }],
  });

  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const r of routes) {
    tags.add(r.tag);
    const path = openApiPath(r.path);
    const parameters: unknown[] = [];
    const addParameters = (schema: z.ZodType | undefined, where: 'path' | 'query') => {
      if (!schema) return;
      const json = convert(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
      for (const [name, prop] of Object.entries(json.properties ?? {})) {
        const { description, ...rest } = prop;
        parameters.push({
          name,
          in: where,
          required: where === 'path' || (json.required ?? []).includes(name),
          ...(description ? { description } : {}),
          schema: rest,
        });
      }
    };
    if (r.auth === 'workspace') {
      parameters.push({
        $ref:
          r.tokens === 'none' ? '#/components/parameters/WorkspaceId' : '#/components/parameters/WorkspaceIdOrToken',
      });
    }
    parameters.push({ $ref: '#/components/parameters/RequestId' });
    addParameters(r.params, 'path');
    addParameters(r.query, 'query');
    for (const [name, description] of Object.entries(r.headers ?? {}))
      parameters.push({ name, in: 'header', required: true, description, schema: { type: 'string' } });

    const codes = routeErrorCodes(r);
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of codes) byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
    for (const status of r.errors ?? [])
      if (!byStatus.has(status)) throw new Error(`${r.method} ${r.path} lists ${status} without a contract code`);

    const headers = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
    const responses: Record<string, unknown> = { [r.status]: successResponse(r, convert, headers) };
    if (r.alternate)
      responses[r.alternate.status] = { ...(responses[r.status] as object), description: r.alternate.description };
    for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
      responses[status] = {
        description: `${statusDescriptions[status] ?? 'Error'}: ${statusCodes.map((c) => `\`${c}\` (${codeMeanings[c]})`).join('; ')}`,
        headers: status === 429 ? { ...headers, 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : headers,
        content: {
          'application/json': {
            schema: errorSchema(statusCodes),
            examples: Object.fromEntries(
              statusCodes.map((code) => [
                code,
                {
                  summary: codeMeanings[code],
                  value: {
                    error: {
                      code,
                      message: codeMeanings[code].replace(/^./, (c) => c.toUpperCase()).replaceAll('`', '') + '.',
                      request_id: '3f1c2a9e-8b7d-4c61-9e0f-2a4b6c8d0e1f',
                      ...(code === 'invalid_input'
                        ? { details: [{ field: exampleField(r), message: 'is not valid' }] }
                        : {}),
                    },
                  },
                },
              ]),
            ),
          },
        },
      };
    }

    paths[path] ??= {};
    paths[path][r.method] = {
      tags: [r.tag],
      summary: r.summary,
      description: describeAuth(r),
      operationId:
        r.method +
        (path === '/'
          ? 'Root'
          : path.replace(/[{}]/g, '').replace(/[/._-]+([a-z])/g, (_m, c: string) => c.toUpperCase())),
      ...(r.auth === 'none'
        ? { security: [] }
        : r.tokens !== 'none'
          ? { security: [{ session: [] }, { token: [] }] }
          : {}),
      parameters,
      ...(r.body
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': { schema: requestSchema(r.body) },
                ...(r.form ? { 'application/x-www-form-urlencoded': { schema: requestSchema(r.body) } } : {}),
              },
            },
          }
        : {}),
      ...(r.rawBody
        ? {
            requestBody: {
              required: true,
              description: 'Passed on as its exact bytes, which `X-Pusher-Signature` signs',
              content: { 'application/json': { schema: convert(r.rawBody, 'input') } },
            },
          }
        : {}),
      ...(r.upload
        ? {
            requestBody: {
              required: true,
              content: {
                'multipart/form-data': {
                  schema: {
                    type: 'object',
                    properties: {
                      [r.upload.field]: {
                        type: 'string',
                        contentMediaType: 'application/octet-stream',
                        description: `The file, at most ${r.upload.maxBytes} bytes (else 400 \`file_too_large\`)`,
                      },
                    },
                    required: [r.upload.field],
                  },
                },
              },
            },
          }
        : {}),
      responses,
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      ...info,
      description:
        'A self-hostable team messaging backend. Bodies are JSON; every non-2xx answer carries the `Error` body with a ' +
        'stable `code`, and every answer an `X-Request-Id`. Checks run in this order, the first failure wins: 401 (session or token), ' +
        "429 (a token's rate), 400 (`X-Workspace-Id`; with a token, 403 for another workspace), 403 (what a token may call), " +
        '404 (workspace), 400 (validation), 403, 404 (resource), 409.',
      license: { name: 'UNLICENSED', identifier: 'UNLICENSED' },
    },
    servers: [
      { url: '/', description: 'The gateway serving this document (`http://localhost:8080` in a local `pnpm start`)' },
    ],
    security: [{ session: [] }],
    tags: [...tags].map((name) => ({ name, description: tagDescriptions[name] ?? name })),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        session: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A signed-in user: the `access_token` of an AuthResponse',
        },
        token: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'wms_wt_… or wms_ct_…',
          description:
            'An agent: an integration token (`wms_wt_` workspace token, `wms_ct_` conversation token) made by an owner or admin. ' +
            'A workspace token calls the routes that list this scheme, as its agent, in its workspace; a conversation token only ' +
            'posts messages into its conversation. Each token makes at most `TOKEN_RATE_LIMIT_PER_MINUTE` requests a minute (429 `rate_limited`).',
        },
      },
      parameters: {
        WorkspaceId: {
          name: 'X-Workspace-Id',
          in: 'header',
          required: true,
          description: 'The workspace acted in; missing or malformed is 400 `invalid_workspace_header`',
          schema: { type: 'string', format: 'uuid' },
        },
        WorkspaceIdOrToken: {
          name: 'X-Workspace-Id',
          in: 'header',
          required: false,
          description:
            "The workspace acted in: required with a session (missing or malformed is 400 `invalid_workspace_header`); with a token it may be omitted (the token's workspace), and another workspace is 403 `forbidden`",
          schema: { type: 'string', format: 'uuid' },
        },
        RequestId: {
          name: 'X-Request-Id',
          in: 'header',
          required: false,
          description:
            'Your id for this request, echoed in the `X-Request-Id` answer header and error bodies when it is 1..128 characters from `[A-Za-z0-9._:-]` (else a new UUID is used)',
          schema: { type: 'string' },
        },
      },
      headers: { 'X-Request-Id': requestIdHeader, 'Retry-After': retryAfterHeader },
    },
  };
}

function describeAuth(r: Route): string {
  if (r.auth === 'none') return 'No credentials needed.';
  if (r.auth === 'session') return 'Needs a session (`Authorization: Bearer <access_token>`); no token.';
  const member = 'Needs a session and `X-Workspace-Id` naming a workspace the caller is an accepted member of.';
  if (r.tokens === 'workspace') return `${member} Or a workspace token, as its agent.`;
  if (r.tokens === 'conversation')
    return `${member} Or a workspace token, as its agent; or a conversation token of this conversation.`;
  return `${member} No token.`;
}

function exampleField(r: Route): string {
  if (r.body) return 'body.' + (Object.keys((r.body as unknown as { shape?: object }).shape ?? {})[0] ?? 'name');
  if (r.params) return 'path.' + (Object.keys((r.params as unknown as { shape?: object }).shape ?? {})[0] ?? 'id');
  if (r.query) return 'query.limit';
  return r.upload ? `body.${r.upload.field}` : 'body';
}

function successResponse(
  r: Route,
  convert: (schema: z.ZodType, io: 'input' | 'output') => JsonSchema,
  headers: object,
) {
  if (r.status === 204) return { description: 'Done; no body', headers };
  if (r.path === '/metrics') {
    return {
      description: 'Prometheus text exposition',
      headers,
      content: { 'text/plain': { schema: { type: 'string' } } },
    };
  }
  if (r.path === '/openapi.json') {
    return {
      description: 'This document',
      headers,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              openapi: { type: 'string', const: '3.1.0' },
              info: { type: 'object' },
              paths: { type: 'object' },
            },
            required: ['openapi', 'info', 'paths'],
          },
        },
      },
    };
  }
  if (r.path.startsWith('/docs')) {
    const type = r.path === '/docs' ? 'text/html' : 'text/javascript';
    return { description: r.summary, headers, content: { [type]: { schema: { type: 'string' } } } };
  }
  if (r.path.startsWith('/storage/')) {
    return {
      description: "The exact bytes, with the asset's Content-Type",
      headers: {
        ...headers,
        'Content-Disposition': {
          description: '`attachment` or `inline`, with the file name',
          schema: { type: 'string' },
        },
        'Cache-Control': { schema: { type: 'string', const: 'private, max-age=300' } },
      },
      content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
    };
  }
  return {
    description: 'Success',
    headers,
    ...(r.response ? { content: { 'application/json': { schema: convert(r.response, 'output') } } } : {}),
  };
}
