import { describe, expect, it } from 'vitest';
import { reactionEmoji } from './emoji.ts';

const code = (raw: string) => {
  try {
    reactionEmoji(raw);
  } catch (err) {
    return (err as { code: string }).code;
  }
};

describe('reaction emoji', () => {
  it('accepts exactly one emoji: plain, modified, ZWJ sequences, flags, tag sequences and keycaps', () => {
    for (const e of ['👍', '👍🏽', '👨‍👩‍👧', '🧑🏾‍💻', '🇫🇷', '🏴󠁧󠁢󠁥󠁮󠁧󠁿', '1️⃣', '#️⃣', '❤️', '🏳️‍🌈']) expect(reactionEmoji(e)).toBe(e);
  });

  it('stores the text-style spelling in its emoji form', () => {
    expect(reactionEmoji('❤')).toBe('❤️');
    expect(reactionEmoji('☺')).toBe('☺️');
  });

  it('refuses text, several emoji, bare modifiers and partial sequences', () => {
    for (const raw of [
      '',
      'a',
      'thumbsup',
      ':+1:',
      '👍👍',
      '👍 ',
      '1',
      '#',
      '🇫',
      '\u200d',
      '\uFE0F',
      '👍a',
      '🏽x',
      'x'.repeat(40),
    ]) {
      expect(code(raw), JSON.stringify(raw)).toBe('invalid_emoji');
    }
  });
});
