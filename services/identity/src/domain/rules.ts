import type { FieldCheck as Check } from '@wms/kit/errors';

export const limits = {
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 128,
  nameMax: 80,
} as const;

// Deliberately permissive (one @, a dot in the domain, no spaces): the mailed link is the real proof of an address.
const emailPattern = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const tokenPattern = /^[A-Za-z0-9_-]{43}$/;
const codePattern = /^\d{6}$/;

/** Addresses are compared case-insensitively: stored and looked up trimmed and lowercased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export const isValidEmail = (email: string): boolean => email.length <= limits.emailMax && emailPattern.test(email);

export const isValidPassword = (password: string): boolean =>
  password.length >= limits.passwordMin && password.length <= limits.passwordMax;

export const normalizeName = (name: string): string => name.trim();

export const isValidName = (name: string): boolean => name.length >= 1 && name.length <= limits.nameMax;

/** Tokens are 32 random bytes in URL-safe base64 without padding. */
export const isWellFormedToken = (token: string): boolean => tokenPattern.test(token);

export const isWellFormedCode = (code: string): boolean => codePattern.test(code);

export const emailCheck = (email: string, field = 'body.email'): Check => [
  field,
  isValidEmail(email),
  'must be a valid email address of at most 254 characters',
];
export const passwordCheck = (password: string): Check => [
  'body.password',
  isValidPassword(password),
  'must be 8 to 128 characters',
];
export const nameCheck = (name: string): Check => [
  'body.name',
  isValidName(name),
  'must be 1 to 80 characters after trimming',
];
export const tokenCheck = (token: string): Check => [
  'body.token',
  isWellFormedToken(token),
  'must be a token from a mailed link',
];
export const codeCheck = (code: string): Check => ['body.code', isWellFormedCode(code), 'must be exactly 6 digits'];
