import { ensure } from '@wms/kit/errors';

export interface Channel {
  id: string;
  workspaceId: string;
  name: string;
  topic: string | null;
  createdByActorId: string;
  createdAt: Date;
  updatedAt: Date;
}

const namePattern = /^[a-z0-9][a-z0-9_-]{0,79}$/;

/** CreateChannel (contract §4): a lowercase name of letters, digits, `_` and `-`, up to 80; a topic up to 250. */
export function validateNewChannel(input: { name: string; topic?: string | null | undefined }): { name: string; topic: string | null } {
  const topic = input.topic?.trim() || null;
  ensure(
    ['body.name', namePattern.test(input.name), 'must be 1 to 80 lowercase letters, digits, "_" or "-", starting with a letter or digit'],
    ['body.topic', topic === null || topic.length <= 250, 'must be at most 250 characters'],
  );
  return { name: input.name, topic };
}
