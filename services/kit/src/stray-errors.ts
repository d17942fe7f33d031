import type { Logger } from 'pino';

/**
 * Keeps a server process serving through an error nothing handled (a stray `error` event, a forgotten rejection):
 * it is logged with its stack as a bug to fix, and `onStray` counts it, instead of one request ending the process.
 */
export function surviveStrayErrors(log: Logger, onStray: () => void = () => {}): void {
  process.on('uncaughtException', (err, origin) => {
    onStray();
    log.error({ err, origin }, 'unhandled error; the process keeps serving');
  });
  process.on('unhandledRejection', (reason) => {
    onStray();
    log.error({ err: reason }, 'unhandled rejection; the process keeps serving');
  });
}
