import { describe, expect, it } from 'vitest';
import { canDelete, type Message, replyRefusal, shown, validateEditedBody, validateNewMessage } from './message.ts';

const fieldsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    const e = err as { code: string; details?: Array<{ field: string }> };
    return { code: e.code, fields: e.details?.map((d) => d.field) };
  }
  return undefined;
};

const base = { bodyText: 'hi', assetIds: [], mentionedActorIds: [] };
const ids = (n: number) =>
  Array.from({ length: n }, (_, i) => `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`);

describe('new message rules', () => {
  it('bounds the text to 1..40,000 characters, counted as code points', () => {
    expect(fieldsOf(() => validateNewMessage({ ...base, bodyText: '😀'.repeat(40_000) }))).toBeUndefined();
    expect(fieldsOf(() => validateNewMessage({ ...base, bodyText: 'x'.repeat(40_001) }))?.fields).toEqual([
      'body.body_text',
    ]);
    expect(fieldsOf(() => validateNewMessage({ ...base, bodyText: '' }))?.fields).toEqual(['body.body_text']);
  });

  it('allows an empty text only with assets', () => {
    expect(fieldsOf(() => validateNewMessage({ ...base, bodyText: '', assetIds: ids(1) }))).toBeUndefined();
  });

  it('bounds assets, mentions and client_message_id, and drops repeated mentions', () => {
    expect(fieldsOf(() => validateNewMessage({ ...base, assetIds: ids(11) }))?.fields).toEqual(['body.asset_ids']);
    expect(fieldsOf(() => validateNewMessage({ ...base, mentionedActorIds: ids(51) }))?.fields).toEqual([
      'body.mentioned_actor_ids',
    ]);
    expect(validateNewMessage({ ...base, mentionedActorIds: [...ids(50), ...ids(50)] }).mentionedActorIds).toEqual(
      ids(50),
    );
    expect(fieldsOf(() => validateNewMessage({ ...base, clientMessageId: 'c'.repeat(65) }))?.fields).toEqual([
      'body.client_message_id',
    ]);
    expect(fieldsOf(() => validateNewMessage({ ...base, clientMessageId: '' }))?.fields).toEqual([
      'body.client_message_id',
    ]);
  });

  it('takes only ids for assets and mentions', () => {
    expect(
      fieldsOf(() => validateNewMessage({ ...base, assetIds: ['not-an-id'], mentionedActorIds: [...ids(1), 'ABC'] }))
        ?.fields,
    ).toEqual(['body.asset_ids', 'body.mentioned_actor_ids']);
  });

  it('follows the create rules for edits', () => {
    expect(fieldsOf(() => validateEditedBody(''))?.code).toBe('invalid_input');
    expect(fieldsOf(() => validateEditedBody('ok'))).toBeUndefined();
  });
});

describe('who may delete, and where replies go', () => {
  it('lets the author, owners and admins delete', () => {
    const m = { authorActorId: 'me' };
    expect(canDelete(m, 'me', 'member')).toBe(true);
    expect(canDelete(m, 'you', 'owner')).toBe(true);
    expect(canDelete(m, 'you', 'admin')).toBe(true);
    expect(canDelete(m, 'you', 'member')).toBe(false);
    expect(canDelete(m, 'you', undefined)).toBe(false);
  });

  it('refuses replies under replies and under deleted roots', () => {
    expect(replyRefusal({ parentMessageId: 'root', deletedAt: null })?.code).toBe('not_a_root_message');
    expect(replyRefusal({ parentMessageId: null, deletedAt: new Date() })?.code).toBe('thread_root_deleted');
    expect(replyRefusal({ parentMessageId: null, deletedAt: null })).toBeUndefined();
  });
});

describe('what readers see', () => {
  const message = (over: Partial<Message> = {}): Message => ({
    id: 'm',
    workspaceId: 'w',
    conversationId: 'c',
    parentMessageId: null,
    authorActorId: 'a',
    bodyText: 'hello',
    children: [{ type: 'text', text: 'hello', style: { bold: false, italic: false, strike: false, code: false } }],
    mentionedActorIds: ['b'],
    assetIds: ['x'],
    loadingExpiresAt: null,
    replyCount: 2,
    replyActorIds: ['b'],
    lastReplyAt: new Date(),
    reactions: [{ emoji: '👍', actorIds: ['b'] }],
    reactionsVersion: 1,
    editedAt: null,
    deletedAt: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    ...over,
  });

  it('shows a live message as it is', () => {
    const m = message();
    expect(shown(m)).toBe(m);
  });

  it('shows a deleted message as its placeholder, thread fields kept', () => {
    const m = message({ deletedAt: new Date() });
    expect(shown(m)).toMatchObject({
      bodyText: '',
      children: [],
      mentionedActorIds: [],
      reactions: [],
      assetIds: [],
      replyCount: 2,
      replyActorIds: ['b'],
    });
  });
});
