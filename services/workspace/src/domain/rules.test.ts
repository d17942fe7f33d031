import { type DomainError } from '@wms/kit/errors';
import { describe, expect, it } from 'vitest';
import type { Actor } from './model.ts';
import {
  assignableRole,
  requireCanAdd,
  requireCanEditActor,
  requireCanRemove,
  validateProfile,
  validateWorkspaceFields,
} from './rules.ts';

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as DomainError).code;
  }
};

const actor = (over: Partial<Actor>): Actor => ({
  id: 'a1',
  workspaceId: 'w',
  kind: 'user',
  userId: 'u',
  displayName: 'A',
  title: null,
  avatarId: null,
  managedByAdmins: false,
  deactivatedAt: null,
  createdAt: new Date(),
  updatedAt: new Date(),
  ...over,
});

describe('workspace rules', () => {
  it('validates workspace names and slugs', () => {
    expect(validateWorkspaceFields({ name: '  Acme ', slug: 'acme-1' })).toEqual({ name: 'Acme', slug: 'acme-1' });
    for (const slug of ['ab', 'a'.repeat(41), '-ab', 'ab-', 'Abc', 'a_b'])
      expect(
        codeOf(() => validateWorkspaceFields({ slug })),
        slug,
      ).toBe('invalid_input');
    expect(codeOf(() => validateWorkspaceFields({ slug: 'a'.repeat(40) }))).toBeUndefined();
    expect(codeOf(() => validateWorkspaceFields({ name: ' ' }))).toBe('invalid_input');
  });

  it('validates profiles: an empty title becomes null', () => {
    expect(validateProfile({ displayName: ' Ada ', title: '  ' })).toEqual({ displayName: 'Ada', title: null });
    expect(validateProfile({ title: null })).toEqual({ title: null });
    expect(validateProfile({})).toEqual({});
    expect(codeOf(() => validateProfile({ title: 't'.repeat(121) }))).toBe('invalid_input');
  });

  it('assigns only admin or member', () => {
    expect(assignableRole('admin')).toBe('admin');
    expect(codeOf(() => assignableRole('owner'))).toBe('invalid_role');
  });

  it('lets owners add anyone, admins add members, members nobody', () => {
    expect(codeOf(() => requireCanAdd('owner', 'admin'))).toBeUndefined();
    expect(codeOf(() => requireCanAdd('admin', 'member'))).toBeUndefined();
    expect(codeOf(() => requireCanAdd('admin', 'admin'))).toBe('forbidden');
    expect(codeOf(() => requireCanAdd('member', 'member'))).toBe('forbidden');
  });

  it('protects the owner from removal before any role rule, and lets anyone else leave', () => {
    const owner = { id: 'o', role: 'owner' as const };
    expect(codeOf(() => requireCanRemove({ role: 'owner', workspaceUserId: 'o' }, owner))).toBe('owner_protected');
    expect(codeOf(() => requireCanRemove({ role: 'member', workspaceUserId: 'm' }, owner))).toBe('owner_protected');
    expect(
      codeOf(() => requireCanRemove({ role: 'member', workspaceUserId: 'm' }, { id: 'm', role: 'member' })),
    ).toBeUndefined();
    expect(
      codeOf(() => requireCanRemove({ role: 'admin', workspaceUserId: 'a' }, { id: 'm', role: 'member' })),
    ).toBeUndefined();
    expect(codeOf(() => requireCanRemove({ role: 'admin', workspaceUserId: 'a' }, { id: 'b', role: 'admin' }))).toBe(
      'forbidden',
    );
    expect(
      codeOf(() => requireCanRemove({ role: 'owner', workspaceUserId: 'o' }, { id: 'b', role: 'admin' })),
    ).toBeUndefined();
  });

  it("lets one edit one's own actor, and managers edit agents managed by admins only", () => {
    expect(codeOf(() => requireCanEditActor({ role: 'member', actorId: 'a1' }, actor({})))).toBeUndefined();
    expect(codeOf(() => requireCanEditActor({ role: 'admin', actorId: 'x' }, actor({})))).toBe('forbidden');
    expect(
      codeOf(() =>
        requireCanEditActor(
          { role: 'admin', actorId: 'x' },
          actor({ kind: 'agent', userId: null, managedByAdmins: true }),
        ),
      ),
    ).toBeUndefined();
    expect(
      codeOf(() =>
        requireCanEditActor(
          { role: 'member', actorId: 'x' },
          actor({ kind: 'agent', userId: null, managedByAdmins: true }),
        ),
      ),
    ).toBe('forbidden');
    expect(
      codeOf(() =>
        requireCanEditActor(
          { role: 'owner', actorId: 'x' },
          actor({ kind: 'agent', userId: null, managedByAdmins: false }),
        ),
      ),
    ).toBe('forbidden');
  });
});
