import { pino, type Logger } from 'pino';
import { requestContext } from './context.ts';

export type { Logger } from 'pino';

/** Creates the process's root logger; every line carries the current request's ids when there is one. */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const ctx = requestContext.getStore();
      if (!ctx) return {};
      return { request_id: ctx.requestId, user_id: ctx.userId, workspace_id: ctx.workspaceId };
    },
    redact: { paths: ['password', '*.password', 'token', '*.token', 'code', '*.code', 'authorization', '*.authorization'], censor: '[redacted]' },
  });
}
