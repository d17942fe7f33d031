import { describe, expect, it } from 'vitest';
import { batchIds, MAX_BATCH_IDS, uuidv7 } from './ids.ts';

describe('batchIds', () => {
  it('keeps the distinct well-formed ids of a batch read, in order', () => {
    const [a, b] = [uuidv7(), uuidv7()];
    expect(batchIds([a, 'not-an-id', b, a, b.toUpperCase()])).toEqual([a, b]);
  });

  it(`refuses more than ${MAX_BATCH_IDS} ids with invalid_input naming ids`, () => {
    const ids = Array.from({ length: MAX_BATCH_IDS }, () => uuidv7());
    expect(batchIds(ids)).toHaveLength(MAX_BATCH_IDS);
    expect(() => batchIds([...ids, uuidv7()])).toThrowError(expect.objectContaining({ code: 'invalid_input', details: [{ field: 'ids', message: `at most ${MAX_BATCH_IDS} ids per call` }] }));
  });
});
