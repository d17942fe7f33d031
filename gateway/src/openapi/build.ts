import { z } from 'zod';
import type { Route } from '../routes/route.ts';
import { ErrorBody } from '../schemas.ts';

type JsonSchema = Record<string, unknown>;

const errorDescriptions: Record<number, string> = {
  400: 'Invalid input (`invalid_input` with details, `invalid_json`, or a contract code)',
  401: 'Missing, invalid, expired or revoked credentials',
  403: 'Not allowed',
  404: 'Not found or not accessible',
  409: 'Conflicts with the current state',
  429: 'Too many attempts (`Retry-After` says how many seconds to wait)',
  500: 'Internal error',
  503: 'A dependency is unavailable',
};

/**
 * Builds the OpenAPI 3.1 document from the route table, so every route is described by the same schemas that
 * validate it. Named schemas (zod `.meta({id})`) land in `components.schemas`.
 */
export function buildOpenApi(routes: Route[], info: { title: string; version: string }) {
  const components: Record<string, JsonSchema> = {};
  const convert = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const { $defs, $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    for (const [name, def] of Object.entries($defs ?? {})) components[name] = def;
    return JSON.parse(JSON.stringify(rest).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
  };
  const errorRef = { $ref: '#/components/schemas/Error' };
  components.Error = convert(ErrorBody, 'output');

  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.path.replace(/[:*]([A-Za-z_]+)/g, '{$1}');
    const parameters: unknown[] = [];
    const addParameters = (schema: z.ZodType | undefined, where: 'path' | 'query') => {
      if (!schema) return;
      const json = convert(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
      for (const [name, prop] of Object.entries(json.properties ?? {})) {
        parameters.push({ name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema: prop });
      }
    };
    if (r.auth === 'workspace') {
      parameters.push({ name: 'X-Workspace-Id', in: 'header', required: true, description: 'The workspace acted in', schema: { type: 'string', format: 'uuid' } });
    }
    addParameters(r.params, 'path');
    addParameters(r.query, 'query');
    const statuses = new Set([400, 500, 503, ...(r.auth === 'none' ? [] : [401]), ...(r.auth === 'workspace' ? [404] : []), ...(r.errors ?? [])]);
    const responses: Record<string, unknown> = {
      [r.status]: r.status === 204 ? { description: 'No content' } : { description: 'Success', ...(r.response ? { content: { 'application/json': { schema: convert(r.response, 'output') } } } : {}) },
    };
    for (const status of [...statuses].sort()) {
      responses[status] = { description: errorDescriptions[status] ?? 'Error', content: { 'application/json': { schema: errorRef } } };
    }
    paths[path] ??= {};
    paths[path][r.method] = {
      tags: [r.tag],
      summary: r.summary,
      operationId: r.method + (path === '/' ? 'Root' : path.replace(/[{}]/g, '').replace(/[/._-]+([a-z])/g, (_m, c: string) => c.toUpperCase())),
      ...(r.auth === 'none' ? { security: [] } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: convert(r.body, 'input') } } } } : {}),
      ...(r.upload
        ? {
            requestBody: {
              required: true,
              content: {
                'multipart/form-data': {
                  schema: { type: 'object', properties: { [r.upload.field]: { type: 'string', format: 'binary', maxLength: r.upload.maxBytes } }, required: [r.upload.field] },
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
    info,
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas: components,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
  };
}
