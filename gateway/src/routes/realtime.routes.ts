import { z } from 'zod';
import type { Clients } from '../clients.ts';
import {
  toActorPresence,
  toEventPage,
  toRealtimeAuthorization,
  toRealtimeConfiguration,
  toRealtimeUserAuthorization,
} from '../mappers.ts';
import * as s from '../schemas.ts';
import { route } from './route.ts';

const authorizeRealtime = z
  .object({ socket_id: s.socketId, channel_name: s.realtimeChannelName })
  .meta({ examples: [{ socket_id: '123.456', channel_name: `private-workspace-${s.exampleIds.workspace}` }] });

/** The spec's Realtime table and the catch-up of missed events (contract §7), served by the realtime service. */
export const realtimeRoutes = ({ realtime }: Clients) => [
  route({
    method: 'get',
    path: '/realtime/config',
    tag: 'Realtime',
    summary: "How to connect to the realtime provider, and the caller's channels",
    auth: 'workspace',
    tokens: 'workspace',
    status: 200,
    response: s.RealtimeConfiguration,
    handle: async ({ ctx }) =>
      toRealtimeConfiguration(await realtime.GetRealtimeConfig({}, ctx), {
        workspaceId: ctx.workspaceId!,
        actorId: ctx.actorId!,
      }),
  }),
  route({
    method: 'post',
    path: '/realtime/authorize',
    tag: 'Realtime',
    summary: "Sign a subscription to one of the caller's channels (the client library's channel authorization)",
    auth: 'workspace',
    tokens: 'workspace',
    body: authorizeRealtime,
    form: true,
    status: 200,
    response: s.RealtimeAuthorization,
    codes: ['forbidden'],
    handle: async ({ body, ctx }) =>
      toRealtimeAuthorization(
        await realtime.AuthorizeChannel({ socket_id: body.socket_id, channel_name: body.channel_name }, ctx),
      ),
  }),
  route({
    method: 'post',
    path: '/realtime/authenticate',
    tag: 'Realtime',
    summary: "Sign in a connection as the caller's actor (the client library's user authentication)",
    auth: 'workspace',
    tokens: 'workspace',
    body: z.object({ socket_id: s.socketId }).meta({ examples: [{ socket_id: '123.456' }] }),
    form: true,
    status: 200,
    response: s.RealtimeUserAuthorization,
    handle: async ({ body, ctx }) =>
      toRealtimeUserAuthorization(await realtime.AuthenticateUser({ socket_id: body.socket_id }, ctx)),
  }),
  route({
    method: 'get',
    path: '/realtime/presence',
    tag: 'Realtime',
    summary: "The workspace's actors online now",
    auth: 'workspace',
    tokens: 'workspace',
    status: 200,
    response: s.ActorPresenceList,
    handle: async ({ ctx }) => (await realtime.ListPresence({}, ctx)).items.map(toActorPresence),
  }),
  route({
    method: 'post',
    path: '/realtime/webhooks/pusher',
    tag: 'Realtime',
    summary: "The provider's webhook: verified, answered at once, applied by a job",
    auth: 'none',
    tokens: 'none',
    rawBody: s.PusherWebhook,
    headers: {
      'X-Pusher-Key': "the provider app's key",
      'X-Pusher-Signature': "hex HMAC-SHA256 of the body's exact bytes with the app's secret",
    },
    status: 204,
    codes: ['invalid_signature'],
    handle: async ({ raw, req, ctx }) => {
      await realtime.AcceptWebhook(
        {
          raw_body: raw,
          key: req.get('X-Pusher-Key') ?? '',
          signature: req.get('X-Pusher-Signature') ?? '',
          content_type: req.get('Content-Type') ?? '',
        },
        ctx,
      );
    },
  }),
  route({
    method: 'get',
    path: '/events',
    tag: 'Realtime',
    summary: 'Catch-up: the events the caller could have received since a cursor, oldest first',
    auth: 'workspace',
    tokens: 'workspace',
    query: z.object({ after: s.eventCursor.optional(), limit: s.limit }),
    status: 200,
    response: s.EventPage,
    codes: ['cursor_expired'],
    handle: async ({ query, ctx }) =>
      toEventPage(await realtime.ListEvents({ after: query.after, limit: query.limit ?? 50 }, ctx)),
  }),
];
