import { type DestinationStream, type Logger, type LoggerOptions, pino } from 'pino';
import { requestContext } from './context.ts';

export type { Logger } from 'pino';

/** Creates the process's root logger at `level` (the config's `LOG_LEVEL`); every line carries the current request's ids when there is one. */
export function createLogger(service: string, level: string, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const ctx = requestContext.getStore();
      if (!ctx) return {};
      return { request_id: ctx.requestId, user_id: ctx.userId, token_id: ctx.tokenId, workspace_id: ctx.workspaceId };
    },
    // Secrets never belong in a log; these catch a slip. (`code` is not among them: error codes, such as a request's
    // contract code or a driver's ECONNREFUSED, are what logs are for; mailed codes are never logged.)
    redact: {
      paths: ['password', '*.password', 'token', '*.token', 'authorization', '*.authorization'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
