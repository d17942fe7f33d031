import { unauthenticated } from '@wms/kit/errors';

/** A mailed link that cannot be used: unknown, expired, used, or meant for an address another account took meanwhile. */
export const invalidLink = () => unauthenticated('invalid_token', 'The link is invalid, expired or already used.');
