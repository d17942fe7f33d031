import { describe, expect, it } from 'vitest';
import { clientConfigOf, type ProviderSettings } from './provider.ts';

const settings: ProviderSettings = {
  appId: 'id',
  key: 'app-key',
  secret: 's',
  host: '127.0.0.1',
  port: 6001,
  useTls: false,
  cluster: 'mt1',
};

describe('clientConfigOf', () => {
  it('points clients at the gateway for a self-hosted provider', () => {
    expect(clientConfigOf(settings, 'http://localhost:8080')).toEqual({
      appKey: 'app-key',
      cluster: 'mt1',
      wsHost: 'localhost',
      wsPort: 8080,
      wssPort: 8080,
      wsPath: '/realtime/ws',
      forceTls: false,
    });
    expect(clientConfigOf(settings, 'https://wms.example.com/api')).toMatchObject({
      wsHost: 'wms.example.com',
      wsPort: 443,
      wssPort: 443,
      wsPath: '/api/realtime/ws',
      forceTls: true,
    });
  });

  it("points clients at Pusher's own host for the hosted service", () => {
    expect(clientConfigOf({ ...settings, host: undefined, cluster: 'eu' }, 'http://localhost:8080')).toEqual({
      appKey: 'app-key',
      cluster: 'eu',
      wsHost: 'ws-eu.pusher.com',
      wsPort: 80,
      wssPort: 443,
      wsPath: '',
      forceTls: true,
    });
  });
});
