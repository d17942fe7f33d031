import { requestContext } from '@wms/kit/context';
import type { Logger } from '@wms/kit/logger';
import { forbidden, invalidInput, notFound } from '@wms/kit/errors';
import type { CachedToken } from '@wms/kit/tokens';
import express, {
  type ErrorRequestHandler,
  type Express,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import type { Clients } from './clients.ts';
import { trustProxySetting } from './config.ts';
import type { Authenticate } from './middleware/auth.ts';
import { declaresBody, errorHandler, sendError } from './middleware/errors.ts';
import { requestContextMiddleware } from './middleware/request-context.ts';
import { readUpload, streamUpload } from './middleware/upload.ts';
import { parsePart } from './middleware/validate.ts';
import type { Metrics } from './metrics.ts';
import { webApp, type WebAppOptions } from './web-app.ts';
import { accountPages } from './pages.ts';
import { buildOpenApi } from './openapi/build.ts';
import { type RealtimeProvider, type RealtimeWebsockets, realtimeWebsockets } from './realtime-proxy.ts';
import { assetRoutes } from './routes/asset.routes.ts';
import { channelRoutes } from './routes/channel.routes.ts';
import { identityRoutes } from './routes/identity.routes.ts';
import { invitationRoutes } from './routes/invitation.routes.ts';
import { messageRoutes } from './routes/message.routes.ts';
import { readStateRoutes } from './routes/read-state.routes.ts';
import { searchRoutes } from './routes/search.routes.ts';
import { realtimeRoutes } from './routes/realtime.routes.ts';
import { RenderedJson, type Route } from './routes/route.ts';
import { type StorageRouteDeps, storageRoutes } from './routes/storage.routes.ts';
import { systemRoutes } from './routes/system.routes.ts';
import { workspaceRoutes } from './routes/workspace.routes.ts';

export interface AppDeps {
  log: Logger;
  clients: Clients;
  storage: StorageRouteDeps;
  authenticate: Authenticate;
  metrics: Metrics;
  notReady(): Promise<string[]>;
  trustProxy: string;
  /** How long an upload may stall before it is refused (`UPLOAD_IDLE_TIMEOUT_MS`). */
  uploadIdleMs: number;
  /** The self-hosted realtime provider whose websocket the gateway serves; undefined with Pusher's hosted service. */
  realtimeProvider: RealtimeProvider | undefined;
  /** The web client's other origins: S3's for attachment previews, Pusher's hosted service for realtime. */
  webApp?: WebAppOptions;
}

/** Every route of the API, in one table: the OpenAPI document and the Express router are both made from it. */
export function routeTable(deps: Pick<AppDeps, 'clients' | 'metrics' | 'notReady' | 'storage'>): Route[] {
  const routes: Route[] = [];
  routes.push(
    ...systemRoutes({ metrics: deps.metrics, notReady: deps.notReady, openapi: () => openapi }),
    ...identityRoutes(deps.clients),
    ...workspaceRoutes(deps.clients),
    ...invitationRoutes(deps.clients),
    ...channelRoutes(deps.clients),
    ...messageRoutes(deps.clients),
    ...readStateRoutes(deps.clients),
    ...searchRoutes(deps.clients),
    ...assetRoutes(deps.clients),
    ...realtimeRoutes(deps.clients),
    ...storageRoutes(deps.storage),
  );
  const openapi = buildOpenApi(routes, { title: 'wms: team messaging API', version: '1.0.0' });
  return routes;
}

const JSON_TYPES = ['application/json', 'application/*+json'];
const FORM_TYPE = 'application/x-www-form-urlencoded';

/** An Express path (`/a/:id/b`, `/files/*key`) as Express matches it: case-insensitive, an optional trailing slash. */
function pathPattern(path: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path
    .split(/([:*]\w+)/)
    .map((piece) => {
      if (!/^[:*]\w+$/.test(piece)) return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(piece.slice(1));
      return piece.startsWith('*') ? '(.+)' : '([^/]+)';
    })
    .join('');
  return { regex: new RegExp(`^${source}/?$`, 'i'), names };
}

function decodes(value: string): boolean {
  try {
    decodeURIComponent(value);
    return true;
  } catch {
    return false;
  }
}

/** Contract §11: what each kind of token may call, from the route's row. */
function requireTokenScope(r: Route, token: CachedToken, params: Record<string, unknown>): void {
  if (token.kind === 'workspace' && r.tokens !== 'none') return;
  if (token.kind === 'conversation' && r.tokens === 'conversation') {
    const named = params.conversation_id ?? params.channel_id;
    if (typeof named === 'string' && named.toLowerCase() === token.conversationId) return;
    throw forbidden('This token posts only into its own conversation.');
  }
  throw forbidden(
    token.kind === 'workspace'
      ? 'A workspace token cannot use this route: it is for signed-in users or for owners and admins.'
      : 'A conversation token can only post messages into its conversation.',
  );
}

async function* noUpload(): AsyncGenerator<Buffer> {}

/** The gateway's Express app, its route table, and the realtime provider's websockets when it is self-hosted. */
export function createApp(deps: AppDeps): {
  app: Express;
  routes: Route[];
  websockets: RealtimeWebsockets | undefined;
} {
  const app = express();
  app.disable('x-powered-by');
  // No ETag: the API's answers are not cached by validators, and Express would hash every body to make one.
  app.set('etag', false);
  app.set('trust proxy', trustProxySetting(deps.trustProxy));
  app.set('query parser', 'simple');
  app.use(requestContextMiddleware);
  app.use(requestLog(deps));
  const authorize = authorizer(deps.authenticate);
  const readBody = bodyReader();
  const routes = routeTable(deps);
  for (const r of routes) app[r.method](r.path, routeHandler(r, deps, authorize, readBody));
  app.use(accountPages(deps.clients, deps.log));
  app.use(webApp(undefined, deps.webApp));
  app.use((_req, res) => sendError(res, 404, 'not_found', 'No such route.'));
  app.use(malformedPathHandler(routes, authorize));
  app.use(errorHandler(deps.log));
  return { app, routes, websockets: deps.realtimeProvider && realtimeWebsockets(deps.realtimeProvider, deps.log) };
}

type Authorize = (r: Route, req: Request) => Promise<void>;
type ReadBody = (r: Route, req: Request, res: Response) => Promise<void>;

/**
 * Every request once, in the log and the metrics: its route template (`unmatched` for none), status, error code and
 * duration; a client that went away before the answer was complete is `aborted`.
 */
function requestLog({ metrics, log }: Pick<AppDeps, 'metrics' | 'log'>): RequestHandler {
  return (req, res, next) => {
    const stop = metrics.requests.startTimer();
    res.once('close', () => {
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      const status = res.writableFinished ? res.statusCode : 'aborted';
      const seconds = stop({ method: req.method, route, status: String(status) });
      const code = res.locals.errorCode as string | undefined;
      requestContext.run(req.ctx, () =>
        log.info({ method: req.method, route, status, code, ms: Math.round(seconds * 1000) }, 'request'),
      );
    });
    next();
  };
}

/** The route's session (or token) and workspace checks, which come before every other answer (contract §1). */
function authorizer(authenticate: Authenticate): Authorize {
  return async (r, req) => {
    if (r.auth === 'none') return;
    const caller = await authenticate(
      req.get('Authorization'),
      r.auth === 'workspace' ? { value: req.get('X-Workspace-Id') } : undefined,
    );
    if (caller.token) {
      requireTokenScope(r, caller.token, req.params);
      req.ctx.tokenId = caller.token.id;
      req.ctx.workspaceId = caller.token.workspaceId;
      req.ctx.actorId = caller.token.actorId;
      return;
    }
    req.ctx.userId = caller.userId;
    req.ctx.sessionId = caller.sessionId;
    if (caller.workspace) {
      req.ctx.workspaceId = caller.workspace.id;
      req.ctx.actorId = caller.workspace.actorId;
      req.ctx.role = caller.workspace.role;
    }
  };
}

/** Reads a route's body: raw bytes, a form where the route takes one, else JSON. */
function bodyReader(): ReadBody {
  // Parsed inside each route, after the session and workspace checks: a bad body must not answer before a 401 (contract §1).
  const parseJson = express.json({ limit: '1mb', type: JSON_TYPES });
  const parseForm = express.urlencoded({ extended: false, limit: '1mb', type: FORM_TYPE });
  const readRaw = express.raw({ limit: '1mb', type: () => true });
  const parse = (parser: RequestHandler, req: Request, res: Response) =>
    new Promise<void>((resolve, reject) => {
      // body-parser fails with Errors (http-errors, which the error middleware reads); anything else is wrapped.
      const done = (err?: unknown) =>
        err ? reject(err instanceof Error ? err : new Error('The body could not be read.', { cause: err })) : resolve();
      void parser(req, res, done);
    });
  return async (r, req, res) => {
    if (r.rawBody) await parse(readRaw, req, res);
    else await parse(r.form && req.is(FORM_TYPE) ? parseForm : parseJson, req, res);
  };
}

/** A body route answers 400 to a body of another type, before it is read. */
function requireBodyType(r: Route, req: Request): void {
  const types = r.form ? [...JSON_TYPES, FORM_TYPE] : JSON_TYPES;
  if (!r.body || !declaresBody(req) || req.is(types)) return;
  throw r.form
    ? invalidInput(
        [{ field: 'header.content-type', message: `must be application/json or ${FORM_TYPE}` }],
        `Send the body as JSON or as a form (${FORM_TYPE}).`,
      )
    : invalidInput(
        [{ field: 'header.content-type', message: 'must be application/json' }],
        'Send the body as JSON, with Content-Type: application/json.',
      );
}

/** One row of the route table as an Express handler: checks, parsing, the row's `handle`, then its answer. */
function routeHandler(r: Route, deps: AppDeps, authorize: Authorize, readBody: ReadBody) {
  return async (req: Request, res: Response) => {
    await authorize(r, req);
    requireBodyType(r, req);
    await readBody(r, req, res);
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const params = parsePart(r.params, req.params, 'path');
    const query = parsePart(r.query, req.query, 'query');
    const body = parsePart(r.body, r.rawBody ? {} : (req.body ?? {}), 'body');
    const upload = r.upload && { field: r.upload.field, maxBytes: r.upload.maxBytes, idleMs: deps.uploadIdleMs };
    const file = upload && !r.upload!.streamed ? await readUpload(req, upload) : Buffer.alloc(0);
    const stream = () => (upload ? streamUpload(req, upload) : noUpload());
    const result = await r.handle({ params, query, body, file, raw, stream, ctx: req.ctx, req, res });
    if (res.headersSent) return;
    if (r.status === 204) {
      res.status(204).end();
      return;
    }
    res.status(r.alternate && res.locals.alternate === true ? r.alternate.status : r.status);
    // What res.json writes: the same header, and the bytes JSON.stringify makes.
    if (result instanceof RenderedJson) res.set('Content-Type', 'application/json; charset=utf-8').send(result.bytes);
    else res.json(result);
  };
}

/**
 * Express decodes path parameters while matching, before any route runs: a malformed percent-encoding is answered
 * here, after the checks of the route it was meant for, naming the parameter.
 */
function malformedPathHandler(routes: Route[], authorize: Authorize): ErrorRequestHandler {
  const patterns = routes.map((r) => ({ route: r, ...pathPattern(r.path) }));
  return async (err: unknown, req: Request, _res: Response, next: NextFunction) => {
    if (!(err instanceof URIError)) return next(err);
    try {
      const hit = patterns.find((p) => p.route.method === req.method.toLowerCase() && p.regex.test(req.path));
      if (!hit) return next(notFound('No such route.'));
      await authorize(hit.route, req);
      const values = hit.regex.exec(req.path)?.slice(1) ?? [];
      const name = hit.names.find((_, i) => !decodes(values[i]!));
      next(
        invalidInput(
          [{ field: name ? `path.${name}` : 'path', message: 'malformed percent-encoding' }],
          'The request path could not be read.',
        ),
      );
    } catch (failure) {
      next(failure);
    }
  };
}
