import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadService, protoRoot, serviceNames, topology } from './index.ts';

const repoRoot = path.resolve(protoRoot, '..');
const sourcesOf = (name: string): string =>
  readdirSync(path.join(repoRoot, 'services', name, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => readFileSync(path.join(repoRoot, 'services', name, 'src', f), 'utf8'))
    .join('\n');

describe('topology', () => {
  it('has a row for every service folder, and a folder for every row', () => {
    const folders = readdirSync(path.join(repoRoot, 'services')).filter((d) =>
      existsSync(path.join(repoRoot, 'services', d, 'src', 'main.ts')),
    );
    expect(folders.sort()).toEqual([...serviceNames].sort());
  });

  it.each(serviceNames)(
    '%s: its proto declares wms.<name>.v1 and the row’s service, with every client stream',
    (name) => {
      const row = topology[name];
      const proto = readFileSync(path.join(protoRoot, row.proto), 'utf8');
      expect(proto).toMatch(new RegExp(`^package wms\\.${name}\\.v1;`, 'm'));
      const { service } = loadService(name);
      expect(Object.keys(service).length).toBeGreaterThan(0);
      const streams = Object.entries(service)
        .filter(([, method]) => method.requestStream)
        .map(([method]) => method);
      expect(streams.sort()).toEqual([...row.clientStreams].sort());
    },
  );

  it.each(serviceNames)(
    '%s: runs through runService with the roles of its row, and calls exactly its peers',
    (name) => {
      const row = topology[name];
      const main = readFileSync(path.join(repoRoot, 'services', name, 'src', 'main.ts'), 'utf8');
      expect(main).toContain(`runService('${name}'`);
      const roles: readonly string[] = row.roles;
      expect(existsSync(path.join(repoRoot, 'services', name, 'src', 'worker.ts'))).toBe(roles.includes('worker'));
      expect(/\bworker:/.test(main)).toBe(roles.includes('worker'));
      // A peer is called through connectPeer, or kit's relayToRealtime (the outbox relay's client of realtime).
      const called = [...sourcesOf(name).matchAll(/connectPeer\('(\w+)'|relayToRealtime\(/g)].map(
        (m) => m[1] ?? 'realtime',
      );
      expect([...new Set(called)].sort()).toEqual([...row.peers].sort());
    },
  );

  it('gives every service its own ports', () => {
    const ports = serviceNames.flatMap((name) => [topology[name].grpcPort, topology[name].metricsPort]);
    expect(new Set(ports).size).toBe(ports.length);
  });
});
