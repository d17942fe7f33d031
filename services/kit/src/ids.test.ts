import { describe, expect, it } from 'vitest';
import { batchIds, isUuid, MAX_BATCH_IDS, uuidv7 } from './ids.ts';

describe('isUuid', () => {
  it('takes only the lowercase, hyphenated form, though Postgres reads others as the same uuid', () => {
    const id = uuidv7();
    expect(isUuid(id)).toBe(true);
    for (const other of [
      id.toUpperCase(),
      `{${id}}`,
      id.replaceAll('-', ''),
      `${id} `,
      'not-a-uuid',
      '',
      undefined,
      42,
    ])
      expect(isUuid(other)).toBe(false);
  });
});

describe('batchIds', () => {
  it('keeps the distinct well-formed ids of a batch read, in order', () => {
    const [a, b] = [uuidv7(), uuidv7()];
    expect(batchIds([a, 'not-an-id', b, a, b.toUpperCase()])).toEqual([a, b]);
  });

  it(`refuses more than ${MAX_BATCH_IDS} ids with invalid_input naming ids`, () => {
    const ids = Array.from({ length: MAX_BATCH_IDS }, () => uuidv7());
    expect(batchIds(ids)).toHaveLength(MAX_BATCH_IDS);
    expect(() => batchIds([...ids, uuidv7()])).toThrowError(
      expect.objectContaining({
        code: 'invalid_input',
        details: [{ field: 'ids', message: `at most ${MAX_BATCH_IDS} ids per call` }],
      }),
    );
  });
});
