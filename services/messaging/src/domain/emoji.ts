import { invalidArgument } from '@wms/kit/errors';

// The `v` flag (Unicode sets) is what knows emoji sequences; built at run time as TypeScript targets an older ES.
const singleEmoji = new RegExp('^\\p{RGI_Emoji}$', 'v');

/**
 * The reaction key for `{emoji}` (contract §4): exactly one RGI emoji — ZWJ sequences, skin-tone modifiers, flags,
 * tag sequences and keycaps included. A text-style character whose emoji form is RGI (e.g. "❤" for "❤️") is
 * stored in its emoji form, so both spellings are one reaction.
 */
export function reactionEmoji(raw: string): string {
  if (raw.length <= 32) {
    if (singleEmoji.test(raw)) return raw;
    const emojiForm = `${raw}\uFE0F`;
    if (!raw.includes('\uFE0F') && singleEmoji.test(emojiForm)) return emojiForm;
  }
  throw invalidArgument('invalid_emoji', 'The reaction must be exactly one emoji.');
}
