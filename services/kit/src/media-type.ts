// A type/subtype with optional parameters; no CR, LF or other control characters can reach a header.
const MEDIA_TYPE =
  /^[A-Za-z0-9][\w!#$&^.+-]*\/[A-Za-z0-9][\w!#$&^.+-]*(?:\s*;\s*[\w!#$&^.+-]+=(?:[\w!#$&^.+-]+|"[^"\\\p{Cc}]*"))*$/u;

/** Whether a string is a media type (`image/png`, `text/plain; charset=utf-8`) of at most 255 characters. */
export const isMediaType = (value: string): boolean => value.length <= 255 && MEDIA_TYPE.test(value);
