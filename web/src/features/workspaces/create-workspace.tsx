import { field } from '../../lib/forms.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api, ApiError } from '../../lib/api.ts';
import type { Workspace } from '../../lib/types.ts';

/** A new workspace of the signed-in person (POST /workspaces), who becomes its owner; `onCreated` opens it. */
export function CreateWorkspace({ token, onCreated }: { token: string; onCreated: (id: string) => void }) {
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (body: { name: string; slug: string }) => api<Workspace>({ token }, 'POST', '/workspaces', body),
    onSuccess: async (workspace) => {
      await queryClient.invalidateQueries({ queryKey: ['workspaces'] });
      onCreated(workspace.id);
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate({ name: field(form, 'name'), slug: field(form, 'slug') });
  };
  return (
    <form onSubmit={submit} aria-label="Create a workspace">
      <label>
        Workspace name
        <input name="name" required maxLength={80} />
      </label>
      <label>
        Address (lowercase letters, digits and dashes)
        <input name="slug" required pattern="[a-z0-9][a-z0-9-]*" maxLength={40} />
      </label>
      {create.error && <p role="alert">{create.error instanceof ApiError ? create.error.message : 'Not created.'}</p>}
      <button type="submit" disabled={create.isPending}>
        Create the workspace
      </button>
    </form>
  );
}
