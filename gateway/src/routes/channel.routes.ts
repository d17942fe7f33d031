import { z } from 'zod';
import type { Clients } from '../clients.ts';
import { toChannel } from '../mappers.ts';
import * as s from '../schemas.ts';
import { route } from './route.ts';

/** The spec's Channels table (contract §4), served by the messaging service. */
export const channelRoutes = ({ messaging }: Clients) => [
  route({
    method: 'post', path: '/channels', tag: 'Channels', summary: 'Create a channel (any member); names are unique in the workspace', auth: 'workspace',
    body: z.object({ name: s.channelName, topic: s.topic.nullable().optional() }).meta({ examples: [{ name: 'general', topic: 'Everything else' }] }),
    status: 201, response: s.Channel, errors: [409], codes: ['channel_name_taken'],
    handle: async ({ body, ctx }) => toChannel(await messaging.CreateChannel({ name: body.name, topic: body.topic ?? undefined }, ctx)),
  }),
  route({
    method: 'get', path: '/channels', tag: 'Channels', summary: "The workspace's channels, by name", auth: 'workspace',
    status: 200, response: z.array(s.Channel),
    handle: async ({ ctx }) => (await messaging.ListChannels({}, ctx)).channels.map(toChannel),
  }),
  route({
    method: 'get', path: '/channels/:channel_id', tag: 'Channels', summary: 'One channel', auth: 'workspace',
    params: z.object({ channel_id: s.uuid }), status: 200, response: s.Channel, codes: ['not_found'],
    handle: async ({ params, ctx }) => toChannel(await messaging.GetChannel({ channel_id: params.channel_id }, ctx)),
  }),
];
