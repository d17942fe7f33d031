import { compileErrors, validate } from '@readme/openapi-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { routeTable } from '../app.ts';
import { errorStatus } from '../schemas.ts';
import { buildOpenApi, openApiPath, routeErrorCodes } from './build.ts';

const routes = routeTable({
  clients: {} as never,
  metrics: {} as never,
  notReady: async () => [],
  storage: { storage: undefined, secret: '' },
});
const build = () => buildOpenApi(routes, { title: 'wms: team messaging API', version: '1.0.0' });

type Operation = {
  description?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name?: string; in?: string; schema?: Record<string, unknown>; $ref?: string }>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<
    string,
    {
      headers?: Record<string, unknown>;
      content?: Record<string, { schema: unknown; examples?: Record<string, unknown> }>;
    }
  >;
};
type Doc = ReturnType<typeof build> & { paths: Record<string, Record<string, Operation>> };
const doc = build() as Doc;
const op = (method: string, path: string) => doc.paths[path]![method]!;
const bodySchema = (method: string, path: string) => {
  const schema = op(method, path).requestBody!.content['application/json']!.schema as {
    properties: Record<string, Record<string, unknown>>;
  };
  return schema.properties;
};

// The endpoint tables of spec/interface-spec.md, both forms of the conversation routes included; the webhook's
// `{provider}` segment is the provider's name.
const specRoutes = [
  'get /',
  ...[
    'get /realtime/config',
    'post /realtime/authorize',
    'post /realtime/authenticate',
    'get /realtime/presence',
    'post /realtime/webhooks/pusher',
  ],
  'get /workspace/actors',
  'get /workspace/actors/me',
  'patch /workspace/actors/me',
  'get /workspace/actors/{workspace_actor_id}',
  'patch /workspace/actors/{workspace_actor_id}',
  'put /workspace/actors/{workspace_actor_id}/avatar',
  'delete /workspace/actors/{workspace_actor_id}/avatar',
  'get /workspace/actors/{workspace_actor_id}/avatar/{avatar_id}',
  'post /workspace/users',
  'get /workspace/users',
  'patch /workspace/users/{workspace_user_id}',
  'delete /workspace/users/{workspace_user_id}',
  ...['/conversations/{conversation_id}', '/channels/{channel_id}'].flatMap((base) => [
    `post ${base}/messages`,
    `get ${base}/messages`,
    `get ${base}/messages/{message_id}`,
    `patch ${base}/messages/{message_id}`,
    `delete ${base}/messages/{message_id}`,
    `get ${base}/read-state`,
    `put ${base}/read-state`,
  ]),
  'put /conversations/{conversation_id}/messages/{message_id}/saved',
  'delete /conversations/{conversation_id}/messages/{message_id}/saved',
  'put /conversations/{conversation_id}/messages/{message_id}/reactions/{emoji}',
  'delete /conversations/{conversation_id}/messages/{message_id}/reactions/{emoji}',
  'get /saved-messages',
  'post /conversations/{conversation_id}/assets',
  'put /conversations/{conversation_id}/assets/{asset_id}/content',
  'get /conversations/{conversation_id}/assets/{asset_id}/download',
  'post /channels',
  'get /channels',
  'get /channels/{channel_id}',
  'get /threads/{thread_root_id}/read-state',
  'put /threads/{thread_root_id}/read-state',
  'put /threads/{thread_root_id}/subscription',
  'get /threads',
  'post /auth/register',
  'post /auth/magic-link',
  'post /auth/recover',
  'post /auth/reset-password',
  'post /auth/email-code',
  'post /auth/verify-code',
  'post /auth/verify-email',
  'post /auth/login',
  'post /auth/logout',
  'get /users/me',
  'patch /users/me',
  'post /workspaces',
  'get /workspaces',
  'get /workspace',
  'patch /workspace',
  'delete /workspace',
  'put /workspace/owner',
  'put /workspace/avatar',
  'delete /workspace/avatar',
  'get /workspace/avatar/{avatar_id}',
];

describe('buildOpenApi', () => {
  it('is a valid OpenAPI 3.1 document to a strict validator', async () => {
    const result = await validate(structuredClone(doc) as never, { validate: { errors: { colorize: false } } });
    expect(result.valid ? '' : compileErrors(result)).toBe('');
    expect(result.warnings).toEqual([]);
  });

  it("passes Redocly's recommended rules without a finding", async () => {
    // Redocly checks examples as if every object schema were closed, the branches of an allOf too; the error answers
    // narrow the closed Error schema's `code` in a second allOf branch, which that would reject for naming no other field.
    // Every object schema here is closed itself (zod's output schemas), so allowing additional properties loses no check.
    const config = await createConfig({
      extends: ['recommended-strict'],
      rules: { 'no-invalid-media-type-examples': { severity: 'error', allowAdditionalProperties: true } },
    });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: '/openapi.json', config });
    // The one finding kept: health and documentation routes take no input and no credentials, so they have no 4xx answer.
    const inputless = new Set(
      routes
        .filter((r) => r.auth === 'none' && !r.params && !r.query && !r.body)
        .map((r) => `#/paths/${openApiPath(r.path).replaceAll('/', '~1')}/${r.method}/responses`),
    );
    const findings = problems.filter(
      (p) => !(p.ruleId === 'operation-4xx-response' && inputless.has(p.location[0]?.pointer ?? '')),
    );
    expect(findings.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it('resolves every $ref inside the document', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      expect(ref, ref).toMatch(/^#\/components\//);
      const target = ref
        .slice(2)
        .split('/')
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
      expect(target, ref).toBeDefined();
      expect(Object.keys(target as object), ref).not.toEqual(['$ref']);
    }
  });

  it('says what every id of a request names (`x-wms-names`), which the access-wall test fills places by', () => {
    const unnamed: string[] = [];
    const named: string[] = [];
    const visit = (node: unknown, where: string, isId: boolean) => {
      if (!node || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      if ('x-wms-names' in schema) named.push(where);
      else if (isId || schema.format === 'uuid') unnamed.push(where);
      for (const [key, child] of Object.entries(schema)) if (key !== 'examples') visit(child, `${where}.${key}`, false);
    };
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, o] of Object.entries(ops)) {
        for (const p of o.parameters ?? [])
          if (p.in !== 'header' && p.name) visit(p.schema, `${method} ${path} ${p.in} ${p.name}`, /_id$/.test(p.name));
        for (const [type, content] of Object.entries(o.requestBody?.content ?? {}))
          visit(content.schema, `${method} ${path} body (${type})`, false);
      }
    expect(unnamed).toEqual([]);
    expect(named.length).toBeGreaterThan(60);
  });

  it('describes every route of the route table', () => {
    expect(routes.length).toBeGreaterThan(60);
    for (const r of routes) expect(doc.paths[openApiPath(r.path)]?.[r.method], `${r.method} ${r.path}`).toBeDefined();
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    expect(documented).toHaveLength(routes.length);
  });

  it("describes every route of the spec's endpoint tables", () => {
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`)),
    );
    for (const entry of specRoutes) expect(documented.has(entry), `${entry} is missing`).toBe(true);
  });

  it("answers each route's error statuses with the Error body, naming its codes, with X-Request-Id and Retry-After", () => {
    expect(doc.components.schemas.Error).toMatchObject({ type: 'object', required: ['error'] });
    for (const r of routes) {
      const responses = op(r.method, openApiPath(r.path)).responses;
      expect(responses[r.status]?.headers, `${r.method} ${r.path}`).toHaveProperty('X-Request-Id');
      for (const code of routeErrorCodes(r)) {
        const answer = responses[errorStatus[code]];
        expect(answer?.content?.['application/json']?.examples, `${r.method} ${r.path} ${code}`).toHaveProperty(code);
        expect(answer?.headers).toHaveProperty('X-Request-Id');
        if (code === 'rate_limited') expect(answer?.headers).toHaveProperty('Retry-After');
      }
      for (const status of r.errors ?? []) expect(responses[status], `${r.method} ${r.path} ${status}`).toBeDefined();
    }
    expect(Object.keys(op('post', '/auth/login').responses)).toEqual(['200', '400', '401', '429', '500', '503']);
    expect(op('put', '/workspace/avatar').responses['400']!.content!['application/json']!.examples).toHaveProperty(
      'unsupported_image',
    );
  });

  it('carries the contract rules of the request fields', () => {
    expect(bodySchema('post', '/auth/register')).toMatchObject({
      email: { type: 'string', maxLength: 254 },
      password: { type: 'string', minLength: 8, maxLength: 128 },
      name: { type: 'string', minLength: 1, maxLength: 80 },
    });
    expect(bodySchema('post', '/workspaces')).toMatchObject({
      name: { minLength: 1, maxLength: 80 },
      slug: { pattern: '^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$' },
    });
    expect(bodySchema('patch', '/workspace/users/{workspace_user_id}')).toMatchObject({
      role: { enum: ['admin', 'member'] },
    });
    expect(bodySchema('post', '/workspace/users')).toMatchObject({
      role: { enum: ['admin', 'member'], default: 'member' },
    });
    expect(bodySchema('post', '/channels')).toMatchObject({ name: { pattern: '^[a-z0-9][a-z0-9_-]{0,79}$' } });
    expect(bodySchema('post', '/conversations/{conversation_id}/messages')).toMatchObject({
      body_text: { maxLength: 40000 },
      asset_ids: { maxItems: 10 },
      mentioned_actor_ids: { maxItems: 50 },
      client_message_id: { minLength: 1, maxLength: 64 },
    });
    expect(bodySchema('post', '/conversations/{conversation_id}/assets')).toMatchObject({
      name: { minLength: 1, maxLength: 255 },
      size_bytes: { type: 'integer', minimum: 1, maximum: 10485760 },
    });
    expect(bodySchema('patch', '/workspace/actors/me')).toMatchObject({
      display_name: { minLength: 1, maxLength: 80 },
    });
    const limit = op('get', '/threads').parameters!.find((p) => p.name === 'limit');
    expect(limit).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
    });
    const following = op('get', '/threads').parameters!.find((p) => p.name === 'following');
    expect(following).toMatchObject({ schema: { type: 'boolean', default: true } });
    const key = op('get', '/storage/{key}').parameters!.find((p) => p.name === 'key');
    expect(key).toMatchObject({ in: 'path', required: true, schema: { type: 'string' } });
    const messageId = op('get', '/conversations/{conversation_id}/messages/{message_id}').parameters!.find(
      (p) => p.name === 'message_id',
    );
    expect(messageId).toMatchObject({ schema: { type: 'string', format: 'uuid' } });
  });

  it('gives the main bodies examples', () => {
    for (const name of [
      'User',
      'AuthResponse',
      'Workspace',
      'WorkspaceUser',
      'WorkspaceActor',
      'Channel',
      'Message',
      'MessagePage',
      'Asset',
      'AssetDownload',
      'Error',
    ]) {
      expect((doc.components.schemas[name] as { examples?: unknown[] }).examples, name).toHaveLength(1);
    }
    for (const [method, path] of [
      ['post', '/auth/register'],
      ['post', '/conversations/{conversation_id}/messages'],
      ['post', '/channels'],
      ['post', '/workspaces'],
    ] as const) {
      expect(op(method, path).requestBody!.content['application/json']!.schema, `${method} ${path}`).toHaveProperty(
        'examples',
      );
    }
  });

  it('says which routes take a token besides a session (contract §11), and that the others take a session alone', () => {
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['session', 'token']);
    for (const r of routes) {
      const security = op(r.method, openApiPath(r.path)).security;
      if (r.auth === 'none') expect(security, `${r.method} ${r.path}`).toEqual([]);
      else if (r.tokens === 'none') expect(security, `${r.method} ${r.path}`).toBeUndefined();
      else expect(security, `${r.method} ${r.path}`).toEqual([{ session: [] }, { token: [] }]);
    }
    expect(doc.security).toEqual([{ session: [] }]);
    expect(op('post', '/channels/{channel_id}/messages').description).toContain('conversation token');
    expect(op('delete', '/workspace').description).toContain('No token');
  });

  it('names its servers', () => {
    expect(doc.servers.length).toBeGreaterThan(0);
  });
});
