import { describe, expect, it } from 'vitest';
import { contextFromHeaders, contextToHeaders } from './context.ts';

describe('call context', () => {
  it('round-trips through metadata headers, leaving out unset fields', () => {
    const headers = contextToHeaders({ requestId: 'r-1', userId: 'u', clientIp: '10.0.0.1' });
    expect(headers).toEqual({ 'x-request-id': 'r-1', 'x-user-id': 'u', 'x-client-ip': '10.0.0.1' });
    expect(contextFromHeaders((h) => headers[h])).toEqual({ requestId: 'r-1', userId: 'u', clientIp: '10.0.0.1' });
  });
});
