import { randomUUID } from 'node:crypto';
import { type CallContext, requestContext } from '@wms/kit/context';
import type { RequestHandler } from 'express';

const clientRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

declare global {
  // Express's own augmentation point: its types merge this global namespace into every handler's Request. The module
  // alternative (express-serve-static-core) is not a dependency the gateway can resolve.
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's augmentation point, as said above
  namespace Express {
    interface Request {
      ctx: CallContext;
    }
  }
}

/** Adopts the client's `X-Request-Id` when well formed (else makes one), echoes it, and scopes logs to it. */
export const requestContextMiddleware: RequestHandler = (req, res, next) => {
  const given = req.get('X-Request-Id');
  const requestId = given && clientRequestId.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', requestId);
  req.ctx = { requestId, clientIp: req.ip };
  requestContext.run(req.ctx, next);
};
