import { type FieldIssue, invalidInput } from '@wms/kit/errors';
import type { z } from 'zod';

export type Where = 'path' | 'query' | 'body' | 'header';

// U+0000 and unpaired UTF-16 surrogates: Postgres text cannot hold the first, UTF-8 cannot encode the second.
const unpairedSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorable = (text: string) => text.includes('\u0000') || unpairedSurrogate.test(text);
// Request fields are shallow; anything deeper is an unknown field, which the schemas drop anyway.
const MAX_DEPTH = 8;

/** Field issues for every string in `value` that Postgres cannot store, named `<where>.<path>`. */
export function unstorableStrings(value: unknown, path: string[]): FieldIssue[] {
  if (typeof value === 'string') {
    return unstorable(value)
      ? [{ field: path.join('.'), message: 'must not contain U+0000 or unpaired surrogates' }]
      : [];
  }
  if (typeof value !== 'object' || value === null || path.length > MAX_DEPTH) return [];
  return Object.entries(value).flatMap(([key, item]) => unstorableStrings(item, [...path, key]));
}

/**
 * Parses one part of a request; failures become 400 `invalid_input` with `<where>.<field>` details (contract §1).
 * The strings checked for what Postgres cannot store are those the schema keeps (unknown fields are ignored), except
 * in the path, where a string id that cannot exist is simply not found (contract §1).
 */
export function parsePart<T>(schema: z.ZodType<T> | undefined, value: unknown, where: Where): T {
  if (!schema) return {} as T;
  const result = schema.safeParse(value);
  if (!result.success) {
    throw invalidInput(
      result.error.issues.map((issue) => ({
        field: [where, ...issue.path.map(String)].join('.'),
        message: issue.message,
      })),
    );
  }
  const unsafe = where === 'path' ? [] : unstorableStrings(result.data, [where]);
  if (unsafe.length > 0) throw invalidInput(unsafe);
  return result.data;
}
