import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../lib/api.ts';

interface ReceivedInvitation {
  invitation: { id: string; role: 'admin' | 'member' };
  workspace: { id: string; name: string };
  invited_by: { display_name: string };
}

/**
 * The signed-in person's pending invitations (GET /invitations: those to their verified address), each accepted (the
 * workspace then opens) or declined.
 */
export function ReceivedInvitations({ token, onAccepted }: { token: string; onAccepted: (id: string) => void }) {
  const queryClient = useQueryClient();
  const received = useQuery({
    queryKey: ['invitations'],
    queryFn: () => api<ReceivedInvitation[]>({ token }, 'GET', '/invitations'),
  });
  const answer = useMutation({
    mutationFn: ({ id, accept }: { id: string; accept: boolean }) =>
      api<{ workspace_id: string }>({ token }, 'POST', `/invitations/${id}/${accept ? 'accept' : 'decline'}`),
    onSuccess: async (answered, { accept }) => {
      await queryClient.invalidateQueries({ queryKey: ['invitations'] });
      if (!accept) return;
      await queryClient.invalidateQueries({ queryKey: ['workspaces'] });
      onAccepted(answered.workspace_id);
    },
  });
  if (!received.data?.length) return null;
  return (
    <section className="invitations" aria-label="Invitations">
      <ul>
        {received.data.map(({ invitation, workspace, invited_by }) => (
          <li key={invitation.id}>
            {invited_by.display_name} invited you to {workspace.name} as{' '}
            {invitation.role === 'admin' ? 'an admin' : 'a member'}.{' '}
            <button
              type="button"
              disabled={answer.isPending}
              onClick={() => answer.mutate({ id: invitation.id, accept: true })}
            >
              Accept
            </button>{' '}
            <button
              type="button"
              disabled={answer.isPending}
              onClick={() => answer.mutate({ id: invitation.id, accept: false })}
            >
              Decline
            </button>
          </li>
        ))}
      </ul>
      {answer.error && <p role="alert">{answer.error instanceof ApiError ? answer.error.message : 'Not answered.'}</p>}
    </section>
  );
}
