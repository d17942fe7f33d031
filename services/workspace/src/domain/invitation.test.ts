import { DomainError } from '@wms/kit/errors';
import { describe, expect, it } from 'vitest';
import {
  INVITATION_LIFETIME_MS,
  type InvitationAction,
  type InvitationStatus,
  statusAt,
  transition,
} from './invitation.ts';

const statuses: InvitationStatus[] = ['pending', 'accepted', 'declined', 'revoked', 'expired'];
const actions: InvitationAction[] = ['accept', 'decline', 'revoke'];

describe('invitation status', () => {
  it('lives 7 days, and a pending invitation reads expired from the moment its time is up', () => {
    expect(INVITATION_LIFETIME_MS).toBe(7 * 24 * 3600 * 1000);
    const expiresAt = new Date('2026-12-08T10:00:00.000Z');
    expect(statusAt('pending', expiresAt, new Date(expiresAt.getTime() - 1))).toBe('pending');
    expect(statusAt('pending', expiresAt, expiresAt)).toBe('expired');
    expect(statusAt('pending', expiresAt, new Date(expiresAt.getTime() + 1))).toBe('expired');
  });

  it('keeps a closed status whatever the time', () => {
    const past = new Date('2020-01-01T00:00:00.000Z');
    for (const status of statuses.filter((s) => s !== 'pending'))
      expect(statusAt(status, past, new Date())).toBe(status);
  });

  it('moves only a pending invitation, each action to its own final status', () => {
    expect(actions.map((a) => transition('pending', a))).toEqual(['accepted', 'declined', 'revoked']);
  });

  it('refuses to accept or decline a closed invitation with 409 invitation_closed, and revokes it as a no-op', () => {
    for (const status of statuses.filter((s) => s !== 'pending')) {
      for (const action of ['accept', 'decline'] as const) {
        let error: unknown;
        try {
          transition(status, action);
        } catch (err) {
          error = err;
        }
        expect(error, `${action} when ${status}`).toBeInstanceOf(DomainError);
        expect((error as DomainError).kind).toBe('failed_precondition');
        expect((error as DomainError).code).toBe('invitation_closed');
      }
      expect(transition(status, 'revoke')).toBeNull();
    }
  });
});
