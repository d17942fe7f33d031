import { field } from '../../lib/forms.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api, ApiError, type Caller } from '../../lib/api.ts';
import type { Conversation } from '../../lib/types.ts';

/** A new public or private channel (POST /channels); `onCreated` opens it. */
export function NewChannel({ caller, onCreated }: { caller: Caller; onCreated: (id: string) => void }) {
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (body: { name: string; kind: 'public' | 'private' }) =>
      api<Conversation>(caller, 'POST', '/channels', body),
    onSuccess: async (channel) => {
      await queryClient.invalidateQueries({ queryKey: ['conversations', caller.workspaceId] });
      onCreated(channel.id);
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate({ name: field(form, 'name'), kind: form.get('private') ? 'private' : 'public' });
    event.currentTarget.reset();
  };
  return (
    <form onSubmit={submit} aria-label="New channel">
      <label>
        Channel name
        <input name="name" required maxLength={80} />
      </label>
      <label className="inline">
        <input name="private" type="checkbox" /> Private (members only)
      </label>
      {create.error && <p role="alert">{create.error instanceof ApiError ? create.error.message : 'Not created.'}</p>}
      <button type="submit" disabled={create.isPending}>
        Create the channel
      </button>
    </form>
  );
}
