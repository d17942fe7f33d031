import { failedPrecondition, notFound, unauthenticated } from '@wms/kit/errors';

// Invitations (contract §12): the states one goes through, and which change each request may make.

export type InvitationStatus = 'pending' | 'accepted' | 'declined' | 'revoked' | 'expired';

/** What the invitee or a manager does to an invitation. */
export type InvitationAction = 'accept' | 'decline' | 'revoke';

/** An invitation lives this long after its last (re)sending. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** The most pending invitations the invitee's own list shows (newest first). */
export const RECEIVED_LIST_MAX = 100;

/** The status an invitation stored as `stored` reads at `now`: a pending one whose time is up is expired. */
export function statusAt(stored: InvitationStatus, expiresAt: Date, now: Date): InvitationStatus {
  return stored === 'pending' && expiresAt.getTime() <= now.getTime() ? 'expired' : stored;
}

const outcomes = { accept: 'accepted', decline: 'declined', revoke: 'revoked' } as const;

/**
 * The status `action` leaves an invitation in that reads `status`: only a pending one changes. Accepting or
 * declining a closed one is 409 `invitation_closed`; revoking one leaves it as it is (null: nothing to write).
 */
export function transition<A extends InvitationAction>(
  status: InvitationStatus,
  action: A,
): (typeof outcomes)[A] | null {
  if (status === 'pending') return outcomes[action];
  if (action === 'revoke') return null;
  throw failedPrecondition('invitation_closed', `The invitation is ${status}; ask for a new one.`);
}

/** Someone else's invitation, an unknown one, or one of a deleted workspace: they look alike. */
export const invitationNotFound = () => notFound('No such invitation.');

/** An invitation link that cannot be used: unknown, used, closed, expired, or of a deleted workspace. */
export const invitationLinkInvalid = () =>
  unauthenticated('invalid_token', 'The invitation link is invalid, expired or already used.');
