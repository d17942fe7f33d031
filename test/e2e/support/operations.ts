import { api } from './http.ts';

/** A JSON Schema of the OpenAPI document, as loosely as the tests read it. */
export type JsonSchema = Record<string, unknown>;

/** One place of a request that a value goes into: a path or query parameter, or a top-level body property. */
export interface Place {
  in: 'path' | 'query' | 'body';
  name: string;
  /** What an id there names (the document's `x-wms-names`), when it is one. */
  names?: string;
  required: boolean;
  /** A body array of such values. */
  many: boolean;
  schema: JsonSchema;
}

/** One operation of the OpenAPI document, read for building requests. */
export interface Operation {
  method: string;
  /** The OpenAPI path, `{name}` for parameters. */
  path: string;
  label: string;
  /** Who may call it: nobody in particular, a session only, or a session or an integration token. */
  caller: 'none' | 'session' | 'session-or-token';
  places: Place[];
  /** A multipart upload (its body is a file). */
  upload: boolean;
  /** The body's first example, when it has a body. */
  example?: Record<string, unknown>;
  /** Its 2xx statuses. */
  success: number[];
}

interface RawOperation {
  security?: Array<Record<string, unknown>>;
  parameters?: Array<{ $ref?: string; name?: string; in?: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
}
interface Document {
  paths: Record<string, Record<string, RawOperation>>;
  components: { schemas: Record<string, JsonSchema>; parameters: Record<string, RawOperation['parameters']> };
}

/** What a schema (or its array items, or a member of its `anyOf`) says its id names. */
function namesOf(schema: JsonSchema | undefined): string | undefined {
  if (!schema) return undefined;
  if (typeof schema['x-wms-names'] === 'string') return schema['x-wms-names'];
  const inner = [schema.items, ...((schema.anyOf as JsonSchema[] | undefined) ?? [])] as Array<JsonSchema | undefined>;
  return inner.map(namesOf).find((n) => n !== undefined);
}

const isArray = (schema: JsonSchema): boolean =>
  schema.type === 'array' || ((schema.anyOf as JsonSchema[] | undefined) ?? []).some((s) => s.type === 'array');

function resolve(doc: Document, schema: JsonSchema): JsonSchema {
  const ref = schema.$ref as string | undefined;
  return ref ? doc.components.schemas[ref.split('/').pop()!]! : schema;
}

function bodyPlaces(doc: Document, op: RawOperation): { places: Place[]; upload: boolean; example?: JsonSchema } {
  const content = op.requestBody?.content ?? {};
  const upload = 'multipart/form-data' in content;
  const raw = content['application/json']?.schema ?? content['multipart/form-data']?.schema;
  if (!raw) return { places: [], upload };
  const schema = resolve(doc, raw);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const places = Object.entries(properties).map(([name, property]) => ({
    in: 'body' as const,
    name,
    names: namesOf(property),
    required: required.has(name),
    many: isArray(property),
    schema: property,
  }));
  return { places, upload, example: (schema.examples as JsonSchema[] | undefined)?.[0] };
}

function operationOf(doc: Document, path: string, method: string, op: RawOperation): Operation {
  const parameters = (op.parameters ?? []).map((p) =>
    p.$ref ? (doc.components.parameters[p.$ref.split('/').pop()!] as unknown as typeof p) : p,
  );
  const params: Place[] = parameters
    .filter((p) => p.in === 'path' || p.in === 'query')
    .map((p) => ({
      in: p.in as 'path' | 'query',
      name: p.name!,
      names: namesOf(p.schema),
      required: p.required === true,
      many: false,
      schema: p.schema ?? {},
    }));
  const body = bodyPlaces(doc, op);
  const security = op.security;
  return {
    method,
    path,
    label: `${method.toUpperCase()} ${path}`,
    caller: security?.length === 0 ? 'none' : security?.some((s) => 'token' in s) ? 'session-or-token' : 'session',
    places: [...params, ...body.places],
    upload: body.upload,
    example: body.example,
    success: Object.keys(op.responses)
      .filter((status) => /^2\d\d$/.test(status))
      .map(Number),
  };
}

/** Every operation of the OpenAPI document the gateway serves. */
export async function operations(): Promise<Operation[]> {
  const res = await api('GET', '/openapi.json');
  if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
  const doc = res.body as Document;
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => operationOf(doc, path, method, op)),
  );
}
