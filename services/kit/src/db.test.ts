import { describe, expect, it } from 'vitest';
import { untilWritten } from './db.ts';

describe('untilWritten', () => {
  it('runs the write again while it writes nothing, and answers what it wrote', async () => {
    const answers = [undefined, undefined, 'written'];
    let runs = 0;
    await expect(untilWritten(async () => answers[runs++])).resolves.toBe('written');
    expect(runs).toBe(3);
  });

  it('gives up after its tries', async () => {
    let runs = 0;
    await expect(untilWritten(async () => void runs++, 2)).rejects.toThrow('an upsert wrote nothing in 2 tries');
    expect(runs).toBe(2);
  });
});
