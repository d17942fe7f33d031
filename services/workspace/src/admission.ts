import { randomUUID } from 'node:crypto';
import type { Tx } from '@wms/kit/db';
import type { Actor, UserSummary, WorkspaceUser } from './domain/model.ts';
import { alreadyMember, userActor } from './domain/rules.ts';
import type { ActorStore } from './store/actor.store.ts';
import type { InvitationStore } from './store/invitation.store.ts';
import type { MemberStore } from './store/member.store.ts';
import type { OutboxStore } from './store/outbox.store.ts';

export interface AdmissionStores {
  members: MemberStore;
  actors: ActorStore;
  outbox: OutboxStore;
  invitations: InvitationStore;
}

/** Who joins, how, and what happens when the account is a member already: 409 `already_member`, or kept as it is. */
export interface Admission {
  workspaceId: string;
  user: UserSummary;
  role: 'admin' | 'member';
  whenMember: 'refuse' | 'keep';
  now: Date;
}

/**
 * Makes an account an accepted member with a user actor, in the caller's transaction: contract §3's add and §12's
 * acceptance. A removed member's membership and actor come back; `actor.updated` and `workspace_user.added` go out;
 * a pending invitation of the account's address to the workspace is accepted into the membership. Locks in the order
 * invitation, then membership.
 */
export async function admitMember(s: AdmissionStores, a: Admission, tx: Tx): Promise<WorkspaceUser> {
  // The address's pending invitation before the membership, as accepting locks them: no two admissions deadlock.
  await s.invitations.lockPending(a.workspaceId, a.user.email, () => a.now, tx);
  const existing = await s.members.findAnyByUserForUpdate(a.workspaceId, a.user.id, tx);
  if (existing && !existing.removed) {
    if (a.whenMember === 'refuse') throw alreadyMember();
    await s.invitations.acceptPendingOf(a.workspaceId, a.user.email, existing.id, a.now, tx);
    return existing;
  }
  let added: WorkspaceUser;
  let actor: Actor;
  if (existing) {
    added = (await s.members.reactivate(a.workspaceId, existing.id, a.role, tx))!;
    actor = (await s.actors.setDeactivated(a.workspaceId, existing.actorId, false, tx))!;
  } else {
    // A racing add of the same account fails on the stores' unique indexes as already_member.
    actor = await s.actors.insert(userActor(randomUUID(), a.workspaceId, a.user), tx);
    added = await s.members.insert(
      { id: randomUUID(), workspaceId: a.workspaceId, userId: a.user.id, actorId: actor.id, role: a.role },
      tx,
    );
  }
  await s.invitations.acceptPendingOf(a.workspaceId, a.user.email, added.id, a.now, tx);
  await s.outbox.append(
    [
      { type: 'actor.updated', actor },
      { type: 'workspace_user.added', member: { ...added, user: a.user } },
    ],
    tx,
  );
  return added;
}
