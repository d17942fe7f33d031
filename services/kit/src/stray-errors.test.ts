import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('surviveStrayErrors', () => {
  it('keeps the process running through an unhandled error event and a forgotten rejection, logging each', async () => {
    // A real process, since the point is that it does not end.
    const script = `
      import { EventEmitter } from 'node:events';
      import { createLogger } from './logger.ts';
      import { surviveStrayErrors } from './stray-errors.ts';
      let strays = 0;
      // Alive after both: the last line is written on a later turn of the event loop than the second stray's handling.
      const alive = () => setImmediate(() => console.log(JSON.stringify({ alive: true, strays })));
      surviveStrayErrors(createLogger('probe', 'error'), () => ++strays === 2 && alive());
      setImmediate(() => new EventEmitter().emit('error', new Error('stray event')));
      setImmediate(() => void Promise.reject(new Error('stray rejection')));
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: here },
    );
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // Anywhere in the output: the logger writes its lines asynchronously, so they may come after console.log's.
    expect(lines).toContainEqual({ alive: true, strays: 2 });
    expect(lines.filter((l) => l.level === 'error').map((l) => l.msg)).toEqual([
      'unhandled error; the process keeps serving',
      'unhandled rejection; the process keeps serving',
    ]);
  });
});
