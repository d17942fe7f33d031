import { z } from 'zod';
import type { Clients } from '../clients.ts';
import { toActor, toDownload, toToken, toWorkspace, toWorkspaceUser } from '../mappers.ts';
import * as s from '../schemas.ts';
import { route } from './route.ts';

const AVATAR_UPLOAD = { field: 'file', maxBytes: 10 * 1024 * 1024 };

const workspaceFields = { name: s.workspaceName, slug: s.slug };
const profile = z
  .object({ display_name: s.displayName.optional(), title: s.title.nullable().optional() })
  .meta({ examples: [{ display_name: 'Ada', title: 'Engineer' }] });
const toProfile = (b: z.output<typeof profile>) => ({
  display_name: b.display_name,
  // Absent: leave alone; null: clear; a string: set.
  title: b.title === undefined ? undefined : { value: b.title ?? undefined },
});
// A string per the contract (`me`, or an id; a malformed one is 404); a UUID in capitals is the same id as in lowercase.
const actorPath = z.object({
  workspace_actor_id: s.lenientId('actor').describe('`me` or an actor id; a malformed one is 404'),
});
const actorUuidPath = z.object({ workspace_actor_id: s.id('actor') });

/** The spec's Workspaces, Workspace users and Workspace actors tables (contract §3), served by the workspace service. */
export const workspaceRoutes = ({ workspace }: Clients) => [
  route({
    method: 'post',
    path: '/workspaces',
    tag: 'Workspaces',
    summary: 'Create a workspace; the caller becomes its owner',
    auth: 'session',
    tokens: 'none',
    body: z.object(workspaceFields).meta({ examples: [{ name: 'Acme', slug: 'acme' }] }),
    status: 201,
    response: s.Workspace,
    errors: [409],
    codes: ['slug_taken'],
    handle: async ({ body, ctx }) => toWorkspace(await workspace.CreateWorkspace(body, ctx)),
  }),
  route({
    method: 'get',
    path: '/workspaces',
    tag: 'Workspaces',
    summary: "The caller's workspaces, oldest first",
    auth: 'session',
    tokens: 'none',
    status: 200,
    response: z.array(s.Workspace),
    handle: async ({ ctx }) => (await workspace.ListWorkspaces({}, ctx)).workspaces.map(toWorkspace),
  }),
  route({
    method: 'get',
    path: '/workspace',
    tag: 'Workspaces',
    summary: 'The workspace',
    auth: 'workspace',
    tokens: 'workspace',
    status: 200,
    response: s.Workspace,
    handle: async ({ ctx }) => toWorkspace(await workspace.GetWorkspace({}, ctx)),
  }),
  route({
    method: 'patch',
    path: '/workspace',
    tag: 'Workspaces',
    summary: 'Rename the workspace or change its slug (owners and admins)',
    auth: 'workspace',
    tokens: 'none',
    body: z
      .object({ name: s.workspaceName.optional(), slug: s.slug.optional() })
      .meta({ examples: [{ name: 'Acme Inc.' }] }),
    status: 200,
    response: s.Workspace,
    errors: [403, 409],
    codes: ['forbidden', 'slug_taken'],
    handle: async ({ body, ctx }) => toWorkspace(await workspace.UpdateWorkspace(body, ctx)),
  }),
  route({
    method: 'delete',
    path: '/workspace',
    tag: 'Workspaces',
    summary: 'Delete the workspace (owner); its data is purged in the background',
    auth: 'workspace',
    tokens: 'none',
    status: 204,
    errors: [403],
    codes: ['forbidden'],
    handle: async ({ ctx }) => void (await workspace.DeleteWorkspace({}, ctx)),
  }),
  route({
    method: 'put',
    path: '/workspace/owner',
    tag: 'Workspaces',
    summary: 'Transfer ownership (owner); the previous owner becomes an admin',
    auth: 'workspace',
    tokens: 'none',
    body: z
      .object({ workspace_user_id: s.id('workspace_user') })
      .meta({ examples: [{ workspace_user_id: s.exampleIds.workspaceUser }] }),
    status: 200,
    response: s.WorkspaceUser,
    errors: [403],
    codes: ['forbidden', 'invalid_ownership_target'],
    handle: async ({ body, ctx }) => toWorkspaceUser(await workspace.TransferOwnership(body, ctx)),
  }),
  route({
    method: 'put',
    path: '/workspace/avatar',
    tag: 'Workspaces',
    summary:
      'Replace the workspace photo (owners and admins): JPG, PNG, WebP or GIF, 10 MiB, 40 MP; stored as 256 × 256 WebP',
    auth: 'workspace',
    tokens: 'none',
    upload: AVATAR_UPLOAD,
    status: 200,
    response: s.Workspace,
    errors: [403],
    codes: ['forbidden', 'file_too_large', 'image_too_large', 'unsupported_image'],
    handle: async ({ file, ctx }) => toWorkspace(await workspace.SetWorkspaceAvatar({ content: file }, ctx)),
  }),
  route({
    method: 'delete',
    path: '/workspace/avatar',
    tag: 'Workspaces',
    summary: 'Remove the workspace photo (owners and admins)',
    auth: 'workspace',
    tokens: 'none',
    status: 200,
    response: s.Workspace,
    errors: [403],
    codes: ['forbidden'],
    handle: async ({ ctx }) => toWorkspace(await workspace.DeleteWorkspaceAvatar({}, ctx)),
  }),
  route({
    method: 'get',
    path: '/workspace/avatar/:avatar_id',
    tag: 'Workspaces',
    summary: 'A download URL of the current workspace photo',
    auth: 'workspace',
    tokens: 'workspace',
    params: z.object({ avatar_id: s.id('avatar') }),
    status: 200,
    response: s.AssetDownload,
    codes: ['not_found'],
    handle: async ({ params, ctx }) =>
      toDownload(await workspace.GetWorkspaceAvatar({ actor_id: '', avatar_id: params.avatar_id }, ctx)),
  }),
  route({
    method: 'post',
    path: '/workspace/users',
    tag: 'Workspace users',
    summary: 'Add an existing account (owners and admins; only the owner adds admins)',
    auth: 'workspace',
    tokens: 'none',
    body: z
      .object({ email: s.accountEmail, role: s.assignableRole.optional().meta({ default: 'member' }) })
      .meta({ examples: [{ email: 'grace@example.org', role: 'member' }] }),
    status: 201,
    response: s.WorkspaceUser,
    errors: [403, 409],
    codes: ['forbidden', 'account_not_found', 'already_member', 'invalid_role'],
    handle: async ({ body, ctx }) =>
      toWorkspaceUser(await workspace.AddWorkspaceUser({ email: body.email, role: body.role }, ctx)),
  }),
  route({
    method: 'get',
    path: '/workspace/users',
    tag: 'Workspace users',
    summary: 'Members of the workspace',
    auth: 'workspace',
    tokens: 'none',
    status: 200,
    response: z.array(s.WorkspaceUser),
    handle: async ({ ctx }) => (await workspace.ListWorkspaceUsers({}, ctx)).workspace_users.map(toWorkspaceUser),
  }),
  route({
    method: 'patch',
    path: '/workspace/users/:workspace_user_id',
    tag: 'Workspace users',
    summary: "Change a member's role to admin or member (owner)",
    auth: 'workspace',
    tokens: 'none',
    params: z.object({ workspace_user_id: s.id('workspace_user') }),
    body: z.object({ role: s.assignableRole }).meta({ examples: [{ role: 'admin' }] }),
    status: 200,
    response: s.WorkspaceUser,
    errors: [403],
    codes: ['forbidden', 'not_found', 'invalid_role', 'owner_protected'],
    handle: async ({ params, body, ctx }) =>
      toWorkspaceUser(
        await workspace.UpdateWorkspaceUserRole({ workspace_user_id: params.workspace_user_id, role: body.role }, ctx),
      ),
  }),
  route({
    method: 'delete',
    path: '/workspace/users/:workspace_user_id',
    tag: 'Workspace users',
    summary: 'Remove a member (owners remove admins and members, admins members; anyone may leave)',
    auth: 'workspace',
    tokens: 'none',
    params: z.object({ workspace_user_id: s.id('workspace_user') }),
    status: 204,
    errors: [403],
    codes: ['forbidden', 'not_found', 'owner_protected'],
    handle: async ({ params, ctx }) =>
      void (await workspace.RemoveWorkspaceUser({ workspace_user_id: params.workspace_user_id }, ctx)),
  }),
  route({
    method: 'get',
    path: '/workspace/actors',
    tag: 'Workspace actors',
    summary: 'Actors of the workspace (members and agents); with q, a mention picker',
    auth: 'workspace',
    tokens: 'workspace',
    query: z.object({ q: s.pickerQuery.optional() }),
    status: 200,
    response: z.array(s.WorkspaceActor),
    handle: async ({ query, ctx }) => (await workspace.ListActors({ q: query.q }, ctx)).actors.map(toActor),
  }),
  route({
    method: 'post',
    path: '/workspace/actors',
    tag: 'Workspace actors',
    summary: 'Create an agent actor managed by admins (owners and admins; extension)',
    auth: 'workspace',
    tokens: 'none',
    body: z
      .object({ display_name: s.displayName, title: s.title.nullable().optional() })
      .meta({ examples: [{ display_name: 'Build bot', title: 'CI' }] }),
    status: 201,
    response: s.WorkspaceActor,
    errors: [403],
    codes: ['forbidden'],
    handle: async ({ body, ctx }) =>
      toActor(
        await workspace.CreateAgentActor({ display_name: body.display_name, title: body.title ?? undefined }, ctx),
      ),
  }),
  route({
    method: 'post',
    path: '/workspace/actors/:workspace_actor_id/deactivate',
    tag: 'Workspace actors',
    summary:
      'Deactivate an agent managed by admins: its tokens stop working at once, its messages keep their author (owners and admins; again: 200, unchanged; extension)',
    auth: 'workspace',
    tokens: 'none',
    params: z.object({ workspace_actor_id: s.id('actor') }),
    status: 200,
    response: s.WorkspaceActor,
    errors: [403],
    codes: ['forbidden', 'not_found'],
    handle: async ({ params, ctx }) =>
      toActor(await workspace.DeactivateAgent({ actor_id: params.workspace_actor_id }, ctx)),
  }),
  route({
    method: 'post',
    path: '/workspace/tokens',
    tag: 'Tokens',
    summary: 'Create a workspace token for an agent (owners and admins; the secret is in this answer only)',
    auth: 'workspace',
    tokens: 'none',
    body: z
      .object({ actor_id: s.id('actor'), name: s.tokenName })
      .meta({ examples: [{ actor_id: s.exampleIds.actor, name: 'Build bot' }] }),
    status: 201,
    response: s.Token,
    errors: [403],
    codes: ['forbidden'],
    handle: async ({ body, ctx }) =>
      toToken(await workspace.CreateWorkspaceToken({ actor_id: body.actor_id, name: body.name }, ctx)),
  }),
  route({
    method: 'post',
    path: '/conversations/:conversation_id/tokens',
    tag: 'Tokens',
    summary:
      'Create a conversation token for an agent: it posts into this conversation only (owners and admins who read it; a private channel gains the agent as a member)',
    auth: 'workspace',
    tokens: 'none',
    params: z.object({ conversation_id: s.id('conversation') }),
    body: z
      .object({ actor_id: s.id('actor'), name: s.tokenName })
      .meta({ examples: [{ actor_id: s.exampleIds.actor, name: 'Deploy notices' }] }),
    status: 201,
    response: s.Token,
    errors: [403],
    codes: ['forbidden', 'not_found'],
    handle: async ({ params, body, ctx }) =>
      toToken(
        await workspace.CreateConversationToken(
          { conversation_id: params.conversation_id, actor_id: body.actor_id, name: body.name },
          ctx,
        ),
      ),
  }),
  route({
    method: 'get',
    path: '/conversations/:conversation_id/tokens',
    tag: 'Tokens',
    summary:
      "The conversation's tokens, revoked ones included, newest first, without secrets (owners and admins who read it)",
    auth: 'workspace',
    tokens: 'none',
    params: z.object({ conversation_id: s.id('conversation') }),
    status: 200,
    response: z.array(s.Token),
    errors: [403],
    codes: ['forbidden', 'not_found'],
    handle: async ({ params, ctx }) =>
      (await workspace.ListConversationTokens({ conversation_id: params.conversation_id }, ctx)).tokens.map(toToken),
  }),
  route({
    method: 'get',
    path: '/workspace/tokens',
    tag: 'Tokens',
    summary:
      'Every token of the workspace, both kinds, revoked ones included, newest first, without secrets (owners and admins)',
    auth: 'workspace',
    tokens: 'none',
    status: 200,
    response: z.array(s.Token),
    errors: [403],
    codes: ['forbidden'],
    handle: async ({ ctx }) => (await workspace.ListWorkspaceTokens({}, ctx)).tokens.map(toToken),
  }),
  route({
    method: 'delete',
    path: '/workspace/tokens/:token_id',
    tag: 'Tokens',
    summary: 'Revoke a token of either kind (owners and admins; again: 204, the first revocation kept)',
    auth: 'workspace',
    tokens: 'none',
    params: z.object({ token_id: s.id('token') }),
    status: 204,
    errors: [403],
    codes: ['forbidden', 'not_found'],
    handle: async ({ params, ctx }) => void (await workspace.RevokeToken({ token_id: params.token_id }, ctx)),
  }),
  route({
    method: 'get',
    path: '/workspace/actors/me',
    tag: 'Workspace actors',
    summary: "The caller's actor",
    auth: 'workspace',
    tokens: 'workspace',
    status: 200,
    response: s.WorkspaceActor,
    handle: async ({ ctx }) => toActor(await workspace.GetActor({ actor_id: ctx.actorId! }, ctx)),
  }),
  route({
    method: 'patch',
    path: '/workspace/actors/me',
    tag: 'Workspace actors',
    summary: "Edit the caller's profile",
    auth: 'workspace',
    tokens: 'workspace',
    body: profile,
    status: 200,
    response: s.WorkspaceActor,
    handle: async ({ body, ctx }) =>
      toActor(await workspace.UpdateActor({ actor_id: ctx.actorId!, ...toProfile(body) }, ctx)),
  }),
  route({
    method: 'get',
    path: '/workspace/actors/:workspace_actor_id',
    tag: 'Workspace actors',
    summary: 'One actor',
    auth: 'workspace',
    tokens: 'workspace',
    params: actorPath,
    status: 200,
    response: s.WorkspaceActor,
    codes: ['not_found'],
    handle: async ({ params, ctx }) => toActor(await workspace.GetActor({ actor_id: params.workspace_actor_id }, ctx)),
  }),
  route({
    method: 'patch',
    path: '/workspace/actors/:workspace_actor_id',
    tag: 'Workspace actors',
    summary: "Edit one's own profile, or (owners and admins) an agent managed by admins",
    auth: 'workspace',
    tokens: 'workspace',
    params: actorPath,
    body: profile,
    status: 200,
    response: s.WorkspaceActor,
    errors: [403],
    codes: ['forbidden', 'not_found'],
    handle: async ({ params, body, ctx }) =>
      toActor(await workspace.UpdateActor({ actor_id: params.workspace_actor_id, ...toProfile(body) }, ctx)),
  }),
  route({
    method: 'put',
    path: '/workspace/actors/:workspace_actor_id/avatar',
    tag: 'Workspace actors',
    summary:
      "Replace an actor's photo (as for profile edits): JPG, PNG, WebP or GIF, 10 MiB, 40 MP; stored as 256 × 256 WebP",
    auth: 'workspace',
    tokens: 'workspace',
    params: actorUuidPath,
    upload: AVATAR_UPLOAD,
    status: 200,
    response: s.WorkspaceActor,
    errors: [403],
    codes: ['forbidden', 'not_found', 'file_too_large', 'image_too_large', 'unsupported_image'],
    handle: async ({ params, file, ctx }) =>
      toActor(await workspace.SetActorAvatar({ actor_id: params.workspace_actor_id, content: file }, ctx)),
  }),
  route({
    method: 'delete',
    path: '/workspace/actors/:workspace_actor_id/avatar',
    tag: 'Workspace actors',
    summary: "Remove an actor's photo (as for profile edits)",
    auth: 'workspace',
    tokens: 'workspace',
    params: actorUuidPath,
    status: 200,
    response: s.WorkspaceActor,
    errors: [403],
    codes: ['forbidden', 'not_found'],
    handle: async ({ params, ctx }) =>
      toActor(await workspace.DeleteActorAvatar({ actor_id: params.workspace_actor_id }, ctx)),
  }),
  route({
    method: 'get',
    path: '/workspace/actors/:workspace_actor_id/avatar/:avatar_id',
    tag: 'Workspace actors',
    summary: "A download URL of an actor's current photo",
    auth: 'workspace',
    tokens: 'workspace',
    params: z.object({ workspace_actor_id: s.id('actor'), avatar_id: s.id('avatar') }),
    status: 200,
    response: s.AssetDownload,
    codes: ['not_found'],
    handle: async ({ params, ctx }) =>
      toDownload(
        await workspace.GetActorAvatar({ actor_id: params.workspace_actor_id, avatar_id: params.avatar_id }, ctx),
      ),
  }),
];
