import type { FieldCheck as Check } from '@wms/kit/errors';

// The account's fields and mailed links follow @wms/kit/account-rules; sign-in codes are identity's alone.

const codePattern = /^\d{6}$/;

export const isWellFormedCode = (code: string): boolean => codePattern.test(code);

export const codeCheck = (code: string): Check => ['body.code', isWellFormedCode(code), 'must be exactly 6 digits'];
