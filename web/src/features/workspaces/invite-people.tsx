import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api, ApiError } from '../../lib/api.ts';
import { field } from '../../lib/forms.ts';
import type { Page } from '../../lib/types.ts';
import { useWorkspace } from '../workspace/context.ts';

interface Invitation {
  id: string;
  email: string;
  role: 'admin' | 'member';
  expires_at: string;
}

/**
 * For owners and admins: invite an address (POST /workspace/invitations, a mail with a link goes out), see the pending
 * invitations and revoke one. The server decides who may: a member's listing is 403, and the form then says so.
 */
export function InvitePeople() {
  const { caller } = useWorkspace();
  const queryClient = useQueryClient();
  const key = ['workspace-invitations', caller.workspaceId];
  const pending = useQuery({
    queryKey: key,
    queryFn: () => api<Page<Invitation>>(caller, 'GET', '/workspace/invitations?limit=100'),
    retry: false,
  });
  const invite = useMutation({
    mutationFn: (body: { email: string; role: string }) =>
      api<Invitation>(caller, 'POST', '/workspace/invitations', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api(caller, 'DELETE', `/workspace/invitations/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  if (pending.error instanceof ApiError && pending.error.status === 403) {
    return <p>Only the workspace&apos;s owners and admins invite people.</p>;
  }
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    invite.mutate({ email: field(form, 'email'), role: field(form, 'role') });
    event.currentTarget.reset();
  };
  const error = invite.error ?? revoke.error;
  return (
    <div className="invite">
      <form onSubmit={submit} aria-label="Invite people">
        <label>
          Email address
          <input name="email" type="email" required maxLength={254} />
        </label>
        <label>
          Role
          <select name="role" defaultValue="member">
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </select>
        </label>
        <button type="submit" disabled={invite.isPending}>
          Send the invitation
        </button>
      </form>
      {error && <p role="alert">{error instanceof ApiError ? error.message : 'Not done.'}</p>}
      <ul aria-label="Pending invitations">
        {pending.data?.items.map((i) => (
          <li key={i.id}>
            {i.email} ({i.role}){' '}
            <button
              type="button"
              onClick={() => revoke.mutate(i.id)}
              aria-label={`Revoke the invitation of ${i.email}`}
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
