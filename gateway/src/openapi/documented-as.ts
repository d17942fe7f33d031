import { z } from 'zod';

/**
 * The JSON Schema a request schema is documented as when its zod input type is not what the client sends: a query
 * `limit` is parsed from a string but is an integer to the client, a wildcard path parameter arrives as segments.
 */
export const documentedAs = z.registry<Record<string, unknown>>();
