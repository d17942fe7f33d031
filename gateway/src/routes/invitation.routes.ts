import { z } from 'zod';
import type { Clients } from '../clients.ts';
import { toAuth, toInvitation, toInvitationPage, toReceivedInvitation, toWorkspaceUser } from '../mappers.ts';
import * as s from '../schemas.ts';
import { route } from './route.ts';

const invitationPath = z.object({ invitation_id: s.id('invitation') });

/** Invitations (contract §12), served by the workspace service, which mails through identity. */
export const invitationRoutes = ({ workspace }: Clients) => [
  route({
    method: 'post',
    path: '/workspace/invitations',
    tag: 'Invitations',
    summary:
      'Invite an address (owners and admins; only the owner invites admins); its pending invitation is renewed and mailed again (200)',
    auth: 'workspace',
    tokens: 'none',
    body: z
      .object({ email: s.email, role: s.assignableRole.optional().meta({ default: 'member' }) })
      .meta({ examples: [{ email: 'grace@example.org', role: 'member' }] }),
    status: 201,
    alternate: {
      status: 200,
      description: 'The address had a pending invitation: renewed for 7 days and mailed again',
    },
    response: s.Invitation,
    errors: [403, 409, 429],
    codes: ['forbidden', 'already_member', 'invalid_role', 'rate_limited'],
    handle: async ({ body, ctx, res }) => {
      const sent = await workspace.CreateInvitation({ email: body.email, role: body.role }, ctx);
      if (!sent.created) res.locals.alternate = true;
      return toInvitation(sent.invitation!);
    },
  }),
  route({
    method: 'get',
    path: '/workspace/invitations',
    tag: 'Invitations',
    summary: "The workspace's invitations of one status, newest first (owners and admins)",
    auth: 'workspace',
    tokens: 'none',
    query: z.object({
      status: s.invitationStatus.optional().meta({ default: 'pending' }),
      cursor: s.id('cursor').optional().describe('`next_cursor` of the previous page (an invitation id)'),
      limit: s.limit,
    }),
    status: 200,
    response: s.InvitationPage,
    errors: [403],
    codes: ['forbidden'],
    handle: async ({ query, ctx }) =>
      toInvitationPage(
        await workspace.ListInvitations(
          { status: query.status ?? 'pending', cursor: query.cursor, limit: query.limit ?? 50 },
          ctx,
        ),
      ),
  }),
  route({
    method: 'delete',
    path: '/workspace/invitations/:invitation_id',
    tag: 'Invitations',
    summary: 'Revoke an invitation (owners and admins); one already closed stays as it is (204 too)',
    auth: 'workspace',
    tokens: 'none',
    params: invitationPath,
    status: 204,
    errors: [403],
    codes: ['forbidden', 'not_found'],
    handle: async ({ params, ctx }) =>
      void (await workspace.RevokeInvitation({ invitation_id: params.invitation_id }, ctx)),
  }),
  route({
    method: 'get',
    path: '/invitations',
    tag: 'Invitations',
    summary: "The pending invitations to the caller's verified address, in every workspace, newest first (at most 100)",
    auth: 'session',
    tokens: 'none',
    status: 200,
    response: z.array(s.ReceivedInvitation),
    handle: async ({ ctx }) => (await workspace.ListReceivedInvitations({}, ctx)).invitations.map(toReceivedInvitation),
  }),
  route({
    method: 'post',
    path: '/invitations/:invitation_id/accept',
    tag: 'Invitations',
    summary: "Accept an invitation to the caller's verified address: the membership is accepted, with its actor",
    auth: 'session',
    tokens: 'none',
    params: invitationPath,
    status: 200,
    response: s.WorkspaceUser,
    errors: [409],
    codes: ['not_found', 'invitation_closed'],
    handle: async ({ params, ctx }) =>
      toWorkspaceUser(await workspace.AcceptInvitation({ invitation_id: params.invitation_id }, ctx)),
  }),
  route({
    method: 'post',
    path: '/invitations/:invitation_id/decline',
    tag: 'Invitations',
    summary: "Decline an invitation to the caller's verified address",
    auth: 'session',
    tokens: 'none',
    params: invitationPath,
    status: 204,
    errors: [409],
    codes: ['not_found', 'invitation_closed'],
    handle: async ({ params, ctx }) =>
      void (await workspace.DeclineInvitation({ invitation_id: params.invitation_id }, ctx)),
  }),
  route({
    method: 'post',
    path: '/invitations/register',
    tag: 'Invitations',
    summary:
      "Register from an invitation's mailed link: the account is made with its address verified, signed in, and the invitation accepted",
    auth: 'none',
    tokens: 'none',
    body: z.object({ token: s.token, name: s.name, password: s.password }).meta({
      examples: [{ token: 'q3Zk7d2Yb1mXnR8vT0sLw4pE6aJ9cH5uF2gK8oI1yQz', name: 'Grace', password: 'correct-horse-1' }],
    }),
    status: 201,
    response: s.AuthResponse,
    errors: [401, 409, 429],
    codes: ['invalid_token', 'account_exists', 'rate_limited'],
    handle: async ({ body, ctx }) => toAuth(await workspace.RegisterFromInvitation(body, ctx)),
  }),
];
