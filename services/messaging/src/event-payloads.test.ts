import { describe, expect, it } from 'vitest';
import { deliverable, MAX_PAYLOAD_BYTES } from './event-payloads.ts';

describe('event payloads', () => {
  const ref = { type: 'message', id: 'm', conversation_id: 'c' };
  it('sends the payload when it fits the provider limit, else its reference', () => {
    const small = { event_id: 'e', message: { body_text: 'x' } };
    expect(deliverable({ payload: small, ref })).toBe(small);
    const large = { event_id: 'e', message: { body_text: 'x'.repeat(MAX_PAYLOAD_BYTES) } };
    expect(deliverable({ payload: large, ref })).toEqual({ event_id: 'e', ref, truncated: true });
  });
});
