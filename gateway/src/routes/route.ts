import type { CallContext } from '@wms/kit/context';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Body, ErrorCode } from '../schemas.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Who may call a route: anyone, a signed-in user, or a signed-in member of the workspace in `X-Workspace-Id`. */
export type RouteAuth = 'none' | 'session' | 'workspace';

/**
 * Which integration tokens (contract §11) may call a route as well: none of them; a workspace token, whose agent acts
 * as an ordinary member (`workspace`); or besides a conversation token, for the conversation its path names
 * (`conversation`: posting a message, by either path form). Every row says it, so a new route cannot forget it.
 */
export type TokenScope = 'none' | 'workspace' | 'conversation';

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  ctx: CallContext;
  /** The uploaded file of an `upload` route. */
  file: Buffer;
  /** The exact bytes of a `rawBody` route's body. */
  raw: Buffer;
  /** The file of a `streamed` upload route as it arrives (with the route's limit and the gateway's stall timeout). */
  stream: () => AsyncGenerator<Buffer>;
  req: Request;
  res: Response;
}

/**
 * A body the service that owns it rendered as its public JSON (a page of messages), written as these bytes: `T` is the
 * body's type, which the function the service renders it with was held to (mappers.ts).
 */
export class RenderedJson<T> {
  declare private readonly body: T;
  constructor(readonly bytes: Buffer) {}
}

/**
 * What a route's `handle` resolves to: the body its `response` schema describes (or that body rendered), or nothing
 * when it has none.
 */
type Answer<R> = R extends z.ZodType ? Body<R> | RenderedJson<Body<R>> : void;

/** One row of the gateway's route table: HTTP shape, validation, documentation and the call it makes. */
export interface Route<P = unknown, Q = unknown, B = unknown, R extends z.ZodType | undefined = z.ZodType | undefined> {
  method: HttpMethod;
  /** Express path, `:name` for parameters. */
  path: string;
  tag: string;
  summary: string;
  auth: RouteAuth;
  /** Which integration tokens may call it (always `none` for a route without `auth`: a token there is not read). */
  tokens: TokenScope;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /**
   * The body may also come as `application/x-www-form-urlencoded` (what pusher-js's `ajax` transport sends), parsed
   * into the same fields as JSON.
   */
  form?: boolean;
  /**
   * The body is passed on unparsed, as its exact bytes (`raw`, up to 1 MiB), whatever its type: a webhook signed over
   * them. The schema only documents it.
   */
  rawBody?: z.ZodType;
  /** Request headers the route reads, with what each means (documentation only). */
  headers?: Record<string, string>;
  /**
   * A multipart/form-data upload of one file field up to `maxBytes`: read into memory (`file`), or, when `streamed`,
   * left to the handler to pass on as a stream (`stream`).
   */
  upload?: { field: string; maxBytes: number; streamed?: boolean };
  /** Success status; 204 sends no body, so a route with a `response` answers 200 or 201. */
  status: [R] extends [z.ZodType] ? 200 | 201 : number;
  /**
   * A second success status with the same body, which the handler chooses by setting `res.locals.alternate = true`
   * (such as 200 for a resource that already existed where a new one is 201).
   */
  alternate?: { status: 200 | 201; description: string };
  /** The success body's schema: the OpenAPI document shows it, and `handle` must resolve to its type. */
  response?: R;
  /** Error statuses this route can answer besides the ones every route shares. */
  errors?: number[];
  /** Contract error codes this route can answer besides the shared ones (session, workspace, validation, 500, 503). */
  codes?: ErrorCode[];
  /** Routes without a `response` (204, or those that write their own answer to `res`) resolve to nothing. */
  handle(input: RouteInput<P, Q, B>): Promise<NoInfer<Answer<R>>>;
}

/** Keeps each row's parameter, query and body types tied to its schemas, and its answer to its response schema. */
export const route = <P = unknown, Q = unknown, B = unknown, R extends z.ZodType | undefined = undefined>(
  r: Route<P, Q, B, R>,
): Route => r;
