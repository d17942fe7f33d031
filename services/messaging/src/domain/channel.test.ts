import { describe, expect, it } from 'vitest';
import { validateNewChannel } from './channel.ts';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as { code: string }).code;
  }
};

describe('channel rules', () => {
  it('accepts names of lowercase letters, digits, "_" and "-", up to 80, starting with a letter or digit', () => {
    for (const name of ['general', 'a', '0day', 'team_x-2', 'x'.repeat(80)]) expect(validateNewChannel({ name }).name).toBe(name);
    for (const name of ['', '-x', '_x', 'Caps', 'has space', 'x'.repeat(81), 'ümlaut']) expect(code(() => validateNewChannel({ name })), name).toBe('invalid_input');
  });

  it('trims topics, stores an empty one as null and bounds it to 250', () => {
    expect(validateNewChannel({ name: 'a', topic: '  hi ' }).topic).toBe('hi');
    expect(validateNewChannel({ name: 'a', topic: '   ' }).topic).toBeNull();
    expect(validateNewChannel({ name: 'a' }).topic).toBeNull();
    expect(code(() => validateNewChannel({ name: 'a', topic: 't'.repeat(251) }))).toBe('invalid_input');
  });
});
