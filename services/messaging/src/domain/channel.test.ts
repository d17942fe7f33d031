import { describe, expect, it } from 'vitest';
import { directParticipants, validateChannelChange, validateNewChannel as validate } from './channel.ts';

const ME = '01900000-0000-7000-8000-000000000001';
const validateNewChannel = (input: Parameters<typeof validate>[0]) => validate(input, ME);

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as { code: string }).code;
  }
};

describe('channel rules', () => {
  it('accepts names of lowercase letters, digits, "_" and "-", up to 80, starting with a letter or digit', () => {
    for (const name of ['general', 'a', '0day', 'team_x-2', 'x'.repeat(80)])
      expect(validateNewChannel({ name }).name).toBe(name);
    for (const name of ['', '-x', '_x', 'Caps', 'has space', 'x'.repeat(81), 'ümlaut'])
      expect(
        code(() => validateNewChannel({ name })),
        name,
      ).toBe('invalid_input');
  });

  it('trims topics, stores an empty one as null and bounds it to 250', () => {
    expect(validateNewChannel({ name: 'a', topic: '  hi ' }).topic).toBe('hi');
    expect(validateNewChannel({ name: 'a', topic: '   ' }).topic).toBeNull();
    expect(validateNewChannel({ name: 'a' }).topic).toBeNull();
    expect(code(() => validateNewChannel({ name: 'a', topic: 't'.repeat(251) }))).toBe('invalid_input');
  });

  it('takes public or private, up to 100 initial members without repeats or the creator', () => {
    const other = '01900000-0000-7000-8000-000000000002';
    expect(validateNewChannel({ name: 'a' }).kind).toBe('public');
    expect(
      validateNewChannel({ name: 'a', kind: 'private', memberActorIds: [other, other.toUpperCase(), ME] }),
    ).toMatchObject({ kind: 'private', memberActorIds: [other] });
    expect(code(() => validateNewChannel({ name: 'a', kind: 'direct' }))).toBe('invalid_input');
    expect(code(() => validateNewChannel({ name: 'a', memberActorIds: ['nope'] }))).toBe('invalid_input');
    expect(
      code(() => validateNewChannel({ name: 'a', memberActorIds: Array.from({ length: 101 }, () => other) })),
    ).toBe('invalid_input');
  });

  it('changes a name or a topic, at least one', () => {
    expect(validateChannelChange({ topic: ' ' })).toEqual({ topic: null });
    expect(validateChannelChange({ name: 'b' })).toEqual({ name: 'b' });
    expect(code(() => validateChannelChange({}))).toBe('invalid_input');
    expect(code(() => validateChannelChange({ name: 'B' }))).toBe('invalid_input');
  });

  it('makes a direct set of the caller and 1..8 others, in id order', () => {
    const ids = Array.from({ length: 9 }, (_, i) => `01900000-0000-7000-8000-00000000001${i}`);
    expect(directParticipants(ME, [ids[1]!, ids[0]!, ids[1]!, ME])).toEqual({
      others: [ids[1], ids[0]],
      participants: [ME, ids[0], ids[1]],
    });
    expect(code(() => directParticipants(ME, [ME]))).toBe('invalid_input');
    expect(code(() => directParticipants(ME, ids))).toBe('invalid_input');
    expect(directParticipants(ME, ids.slice(0, 8)).participants).toHaveLength(9);
  });
});
