import { randomUUID } from 'node:crypto';
import { type CallContext, requestContext } from '@wms/kit/context';
import type { RequestHandler } from 'express';

const clientRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

declare global {
  // biome-ignore lint/style/noNamespace: Express's own augmentation point
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
