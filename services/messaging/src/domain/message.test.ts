import { describe, expect, it } from 'vitest';
import { deliverable, MAX_PAYLOAD_BYTES } from './events.ts';
import { canDelete, replyRefusal, validateEditedBody, validateNewMessage } from './message.ts';

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

describe('new message rules', () => {
  it('bounds the text to 1..40,000 characters, counted as code points', () => {
    expect(fieldsOf(() => validateNewMessage({ ...base, bodyText: '😀'.repeat(40_000) }))).toBeUndefined();
    expect(fieldsOf(() => validateNewMessage({ ...base, bodyText: 'x'.repeat(40_001) }))?.fields).toEqual(['body.body_text']);
    expect(fieldsOf(() => validateNewMessage({ ...base, bodyText: '' }))?.fields).toEqual(['body.body_text']);
  });

  it('allows an empty text only with assets', () => {
    expect(fieldsOf(() => validateNewMessage({ ...base, bodyText: '', assetIds: ['a'] }))).toBeUndefined();
  });

  it('bounds assets, mentions and client_message_id, and drops repeated mentions', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `id-${i}`);
    expect(fieldsOf(() => validateNewMessage({ ...base, assetIds: ids(11) }))?.fields).toEqual(['body.asset_ids']);
    expect(fieldsOf(() => validateNewMessage({ ...base, mentionedActorIds: ids(51) }))?.fields).toEqual(['body.mentioned_actor_ids']);
    expect(validateNewMessage({ ...base, mentionedActorIds: [...ids(50), ...ids(50)] }).mentionedActorIds).toEqual(ids(50));
    expect(fieldsOf(() => validateNewMessage({ ...base, clientMessageId: 'c'.repeat(65) }))?.fields).toEqual(['body.client_message_id']);
    expect(fieldsOf(() => validateNewMessage({ ...base, clientMessageId: '' }))?.fields).toEqual(['body.client_message_id']);
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

describe('event payloads', () => {
  const ref = { type: 'message', id: 'm', conversation_id: 'c' };
  it('sends the payload when it fits the provider limit, else its reference', () => {
    const small = { event_id: 'e', message: { body_text: 'x' } };
    expect(deliverable({ payload: small, ref })).toBe(small);
    const large = { event_id: 'e', message: { body_text: 'x'.repeat(MAX_PAYLOAD_BYTES) } };
    expect(deliverable({ payload: large, ref })).toEqual({ event_id: 'e', ref, truncated: true });
  });
});
