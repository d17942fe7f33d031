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
  account_exists: 'the address has an account: sign in and accept the invitation instead',
  invitation_closed: 'the invitation is no longer pending (accepted, declined, revoked or expired)',
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

type Convert = (schema: z.ZodType, io: 'input' | 'output') => JsonSchema;

/**
 * Builds the OpenAPI 3.1 document from the route table, so every route is described by the same schemas that
 * validate it. Named schemas (zod `.meta({id})`) land in `components.schemas`; rules a service checks are carried as
 * metadata on the request schemas, and `documentedAs` replaces a schema whose zod input is not what clients send.
 */
export function buildOpenApi(routes: Route[], info: { title: string; version: string }) {
  const components: Record<string, JsonSchema> = {};
  const convert = schemaConverter(components);
  const errorRef = convert(ErrorBody, 'output');
  const { paths, tags } = buildPaths(routes, convert, errorRef);
  return {
    openapi: '3.1.0',
    info: documentInfo(info),
    servers: [
      { url: '/', description: 'The gateway serving this document (`http://localhost:8080` in a local `pnpm start`)' },
    ],
    security: [{ session: [] }],
    tags: [...tags].map((name) => ({ name, description: tagDescriptions[name] ?? name })),
    paths,
    components: {
      schemas: components,
      securitySchemes: securitySchemes(),
      parameters: sharedParameters(),
      headers: { 'X-Request-Id': requestIdHeader, 'Retry-After': retryAfterHeader },
    },
  };
}

/** zod to JSON Schema; the named schemas met on the way are added to `components` (one definition per name). */
function schemaConverter(components: Record<string, JsonSchema>): Convert {
  return (schema, io) => {
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
}

// zod leaves out the examples of a schema with transforms in its input form (they are output values); the request
// examples here are written as clients send them, so they are put back.
function requestSchema(schema: z.ZodType, convert: Convert): JsonSchema {
  const json = convert(schema, 'input');
  const examples = z.globalRegistry.get(schema)?.examples;
  return examples && !json.examples ? { ...json, examples } : json;
}

/** The `paths` object, an operation per route, and the tags the routes use (in the order first used). */
function buildPaths(routes: Route[], convert: Convert, errorRef: JsonSchema) {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const r of routes) {
    tags.add(r.tag);
    const path = openApiPath(r.path);
    paths[path] ??= {};
    paths[path][r.method] = operation(r, path, convert, errorRef);
  }
  return { paths, tags };
}

/**
 * One route's operation. Its schemas are converted in a fixed order (parameters, responses, request body): the order
 * their named schemas are added to `components`.
 */
function operation(r: Route, path: string, convert: Convert, errorRef: JsonSchema) {
  const parameters = routeParameters(r, convert);
  const responses = routeResponses(r, convert, errorRef);
  const body = requestBody(r, convert);
  return {
    tags: [r.tag],
    summary: r.summary,
    description: describeAuth(r),
    operationId: operationId(r.method, path),
    ...routeSecurity(r),
    parameters,
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

function operationId(method: string, path: string): string {
  return (
    method +
    (path === '/' ? 'Root' : path.replace(/[{}]/g, '').replace(/[/._-]+([a-z])/g, (_m, c: string) => c.toUpperCase()))
  );
}

/** The document's default is a session; a route says when it needs nothing, or also takes a token. */
function routeSecurity(r: Route) {
  if (r.auth === 'none') return { security: [] };
  return r.tokens !== 'none' ? { security: [{ session: [] }, { token: [] }] } : {};
}

/** The workspace and request id headers, then the path and query parameters, then the route's own headers. */
function routeParameters(r: Route, convert: Convert): unknown[] {
  const parameters: unknown[] = [];
  if (r.auth === 'workspace') {
    parameters.push({
      $ref: r.tokens === 'none' ? '#/components/parameters/WorkspaceId' : '#/components/parameters/WorkspaceIdOrToken',
    });
  }
  parameters.push({ $ref: '#/components/parameters/RequestId' });
  parameters.push(...schemaParameters(r.params, 'path', convert));
  parameters.push(...schemaParameters(r.query, 'query', convert));
  for (const [name, description] of Object.entries(r.headers ?? {}))
    parameters.push({ name, in: 'header', required: true, description, schema: { type: 'string' } });
  return parameters;
}

/** A parameter per property of a path or query schema. */
function schemaParameters(schema: z.ZodType | undefined, where: 'path' | 'query', convert: Convert): unknown[] {
  if (!schema) return [];
  const json = convert(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, prop]) => {
    const { description, ...rest } = prop;
    return {
      name,
      in: where,
      required: where === 'path' || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

/** The body a route reads: JSON (or a form), raw JSON bytes, or a multipart upload. */
function requestBody(r: Route, convert: Convert): object | undefined {
  let body: object | undefined;
  if (r.body) {
    body = {
      required: true,
      content: {
        'application/json': { schema: requestSchema(r.body, convert) },
        ...(r.form ? { 'application/x-www-form-urlencoded': { schema: requestSchema(r.body, convert) } } : {}),
      },
    };
  }
  if (r.rawBody) {
    body = {
      required: true,
      description: 'Passed on as its exact bytes, which `X-Pusher-Signature` signs',
      content: { 'application/json': { schema: convert(r.rawBody, 'input') } },
    };
  }
  if (r.upload) body = uploadBody(r.upload);
  return body;
}

function uploadBody(upload: NonNullable<Route['upload']>) {
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: {
            [upload.field]: {
              type: 'string',
              contentMediaType: 'application/octet-stream',
              description: `The file, at most ${upload.maxBytes} bytes (else 400 \`file_too_large\`)`,
            },
          },
          required: [upload.field],
        },
      },
    },
  };
}

/** The success answer (and its alternate), then an error answer per status the route's contract codes map to. */
function routeResponses(r: Route, convert: Convert, errorRef: JsonSchema): Record<string, unknown> {
  const byStatus = errorCodesByStatus(r);
  const headers = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
  const responses: Record<string, unknown> = { [r.status]: successResponse(r, convert, headers) };
  if (r.alternate)
    responses[r.alternate.status] = { ...(responses[r.status] as object), description: r.alternate.description };
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b))
    responses[status] = errorResponse(r, status, statusCodes, headers, errorRef);
  return responses;
}

/** The route's contract codes grouped by HTTP status; a status the route lists must be one of them. */
function errorCodesByStatus(r: Route): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of routeErrorCodes(r))
    byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
  for (const status of r.errors ?? [])
    if (!byStatus.has(status)) throw new Error(`${r.method} ${r.path} lists ${status} without a contract code`);
  return byStatus;
}

/** One error status: what its codes mean, and the Error body with `code` narrowed to them, an example per code. */
function errorResponse(r: Route, status: number, codes: ErrorCode[], headers: object, errorRef: JsonSchema) {
  return {
    description: `${statusDescriptions[status] ?? 'Error'}: ${codes.map((c) => `\`${c}\` (${codeMeanings[c]})`).join('; ')}`,
    headers: status === 429 ? { ...headers, 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : headers,
    content: {
      'application/json': {
        schema: { allOf: [errorRef, { properties: { error: { properties: { code: { enum: codes } } } } }] },
        examples: Object.fromEntries(codes.map((code) => [code, errorExample(r, code)])),
      },
    },
  };
}

function errorExample(r: Route, code: ErrorCode) {
  return {
    summary: codeMeanings[code],
    value: {
      error: {
        code,
        message: codeMeanings[code].replace(/^./, (c) => c.toUpperCase()).replaceAll('`', '') + '.',
        request_id: '3f1c2a9e-8b7d-4c61-9e0f-2a4b6c8d0e1f',
        ...(code === 'invalid_input' ? { details: [{ field: exampleField(r), message: 'is not valid' }] } : {}),
      },
    },
  };
}

function documentInfo(info: { title: string; version: string }) {
  return {
    ...info,
    description:
      'A self-hostable team messaging backend. Bodies are JSON; every non-2xx answer carries the `Error` body with a ' +
      'stable `code`, and every answer an `X-Request-Id`. Checks run in this order, the first failure wins: 401 (session or token), ' +
      "429 (a token's rate), 400 (`X-Workspace-Id`; with a token, 403 for another workspace), 403 (what a token may call), " +
      '404 (workspace), 400 (validation), 403, 404 (resource), 409.',
    license: { name: 'UNLICENSED', identifier: 'UNLICENSED' },
  };
}

function securitySchemes() {
  return {
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
  };
}

/** The headers many operations share, referenced from them. */
function sharedParameters() {
  return {
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

function successResponse(r: Route, convert: Convert, headers: object) {
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
