import type { CallContext } from '@wms/kit/context';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { ErrorCode } from '../schemas.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Who may call a route: anyone, a signed-in user, or a signed-in member of the workspace in `X-Workspace-Id`. */
export type RouteAuth = 'none' | 'session' | 'workspace';

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  ctx: CallContext;
  /** The uploaded file of an `upload` route. */
  file: Buffer;
  /** The file of a `streamed` upload route as it arrives (with the route's limit and the gateway's stall timeout). */
  stream(): AsyncGenerator<Buffer>;
  req: Request;
  res: Response;
}

/** One row of the gateway's route table: HTTP shape, validation, documentation and the call it makes. */
export interface Route<P = unknown, Q = unknown, B = unknown> {
  method: HttpMethod;
  /** Express path, `:name` for parameters. */
  path: string;
  tag: string;
  summary: string;
  auth: RouteAuth;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /**
   * A multipart/form-data upload of one file field up to `maxBytes`: read into memory (`file`), or, when `streamed`,
   * left to the handler to pass on as a stream (`stream`).
   */
  upload?: { field: string; maxBytes: number; streamed?: boolean };
  /** Success status; 204 sends no body. */
  status: number;
  /** The success body's schema, for the OpenAPI document. */
  response?: z.ZodType;
  /** Error statuses this route can answer besides the ones every route shares. */
  errors?: number[];
  /** Contract error codes this route can answer besides the shared ones (session, workspace, validation, 500, 503). */
  codes?: ErrorCode[];
  handle(input: RouteInput<P, Q, B>): Promise<unknown>;
}

/** Keeps each row's parameter, query and body types tied to its schemas. */
export const route = <P = unknown, Q = unknown, B = unknown>(r: Route<P, Q, B>): Route => r as unknown as Route;
