import { type FieldIssue, invalidInput } from '@wms/kit/errors';
import type { z } from 'zod';

export type Where = 'path' | 'query' | 'body' | 'header';

/** Parses one part of a request; failures become 400 `invalid_input` with `<where>.<field>` details (contract §1). */
export function parsePart<T>(schema: z.ZodType<T> | undefined, value: unknown, where: Where): T {
  if (!schema) return {} as T;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details: FieldIssue[] = result.error.issues.map((issue) => ({
    field: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  throw invalidInput(details);
}
