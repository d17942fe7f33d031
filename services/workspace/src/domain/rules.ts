import { isManager } from '@wms/kit/caller';
import { alreadyExists, ensure, forbidden, invalidArgument, notFound } from '@wms/kit/errors';
import type { Actor, NewActor, Role, UserSummary } from './model.ts';

const slugPattern = /^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$/;

export const limits = { nameMax: 80, displayNameMax: 80, titleMax: 120 } as const;

/** Workspace name and slug (contract §3): trimmed name 1..80; slug of lowercase letters, digits and inner dashes, 3..40. */
export function validateWorkspaceFields(input: { name?: string | undefined; slug?: string | undefined }): {
  name?: string;
  slug?: string;
} {
  const name = input.name?.trim();
  ensure(
    [
      'body.name',
      name === undefined || (name.length >= 1 && name.length <= limits.nameMax),
      'must be 1 to 80 characters after trimming',
    ],
    [
      'body.slug',
      input.slug === undefined || slugPattern.test(input.slug),
      'must be 3 to 40 lowercase letters, digits or inner dashes',
    ],
  );
  return { ...(name !== undefined ? { name } : {}), ...(input.slug !== undefined ? { slug: input.slug } : {}) };
}

/** Actor profile fields: display name 1..80 after trimming; title 0..120 or null (empty after trimming is null). */
export function validateProfile(input: { displayName?: string | undefined; title?: string | null | undefined }): {
  displayName?: string;
  title?: string | null;
} {
  const displayName = input.displayName?.trim();
  const title = input.title === undefined || input.title === null ? input.title : input.title.trim();
  ensure(
    [
      'body.display_name',
      displayName === undefined || (displayName.length >= 1 && displayName.length <= limits.displayNameMax),
      'must be 1 to 80 characters after trimming',
    ],
    [
      'body.title',
      title === undefined || title === null || title.length <= limits.titleMax,
      'must be at most 120 characters',
    ],
  );
  return {
    ...(displayName !== undefined ? { displayName } : {}),
    ...(title !== undefined ? { title: title === '' ? null : title } : {}),
  };
}

/** Roles a member can be given by add or role change; `owner` only moves by transfer. */
export function assignableRole(role: string): 'admin' | 'member' {
  if (role !== 'admin' && role !== 'member') throw invalidArgument('invalid_role', 'The role must be admin or member.');
  return role;
}

/** Workspace settings and photo, agent actors and adding members: owners and admins. */
export function requireManager(role: string | undefined): void {
  if (!isManager(role)) throw forbidden('Only owners and admins can do this.');
}

/** Role changes, ownership transfer and deletion: the owner. */
export function requireOwner(role: string | undefined): void {
  if (role !== 'owner') throw forbidden('Only the workspace owner can do this.');
}

/** Adding with role admin is the owner's; admins add members. */
export function requireCanAdd(callerRole: string | undefined, role: 'admin' | 'member'): void {
  requireManager(callerRole);
  if (role === 'admin' && callerRole !== 'owner') throw forbidden('Only the owner can add admins.');
}

/**
 * Removal (contract §3): the owner is never removed (400, checked first); anyone may leave; owners remove admins and
 * members; admins remove members.
 */
export function requireCanRemove(
  caller: { role: string | undefined; workspaceUserId: string | undefined },
  target: { id: string; role: Role },
): void {
  if (target.role === 'owner')
    throw invalidArgument('owner_protected', 'The owner cannot be removed; transfer ownership first.');
  if (target.id === caller.workspaceUserId) return;
  if (caller.role === 'owner') return;
  if (caller.role === 'admin' && target.role === 'member') return;
  throw forbidden('You cannot remove this member.');
}

/** Actor edits (profile and avatar): one's own actor, or for owners and admins an agent managed by admins. */
export function requireCanEditActor(
  caller: { role: string | undefined; actorId: string | undefined },
  actor: Actor,
): void {
  if (actor.id === caller.actorId) return;
  if (isManager(caller.role) && actor.kind === 'agent' && actor.managedByAdmins) return;
  throw forbidden('You can edit only your own profile, or agents managed by admins.');
}

/** The user actor a membership comes with (contract §3: named after the user). */
export const userActor = (id: string, workspaceId: string, user: Pick<UserSummary, 'id' | 'name'>): NewActor => ({
  id,
  workspaceId,
  kind: 'user',
  userId: user.id,
  displayName: user.name || 'Member',
  title: null,
  managedByAdmins: false,
});

/** 409 `already_member`: the account already belongs to the workspace. */
export const alreadyMember = () => alreadyExists('already_member', 'That account already belongs to the workspace.');

/** 404 `workspace_not_found`: unknown, deleted, or the caller is not an accepted member (the three look alike). */
export const workspaceNotFound = () =>
  notFound('The workspace does not exist or you are not a member.', 'workspace_not_found');

export const actorNotFound = () => notFound('No such actor.');

/** 400 `owner_protected`: a workspace has one owner, and ownership moves only by transfer (the owner steps down first). */
export const ownerTaken = () =>
  invalidArgument('owner_protected', 'The workspace has an owner; transfer ownership instead.');
