import { readdirSync } from 'node:fs';
import path from 'node:path';
import { loadSync, type PackageDefinition } from '@grpc/proto-loader';
import { describe, expect, inject, it } from 'vitest';
import { previousReleaseCommit, repoRoot } from './previous-release.ts';

// Expand and contract for the gRPC contracts (docs/operations.md#upgrades): during a rolling upgrade the previous
// release's pods call this release's and are called by them, so every method and field the previous release has must
// still mean the same on the wire here. A method may be added, and a field (under a new number); a method's request
// or response type, a field's type or a number's meaning must not change in place, and what is removed must have
// been unused for a release. Checked on the .proto files of both releases as proto-loader reads them.

interface FieldDescriptor {
  name: string;
  number: number;
  type: string;
  typeName: string;
  label: string;
}
/** A message as proto-loader describes it (an enum has `value` instead of `field`). */
interface MessageDescriptor {
  format: string;
  type: { field?: FieldDescriptor[] };
}
interface MethodDescriptor {
  requestType: { type: { name: string } };
  responseType: { type: { name: string } };
  requestStream: boolean;
  responseStream: boolean;
}

/** Every .proto of a tree's `protos/` (its sources, not its dependencies), loaded as the services load them. */
function contracts(root: string): PackageDefinition {
  const protos = path.join(root, 'protos');
  const files = readdirSync(protos, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.proto') && !f.split(path.sep).includes('node_modules'),
  );
  return loadSync(files, { keepCase: true, includeDirs: [protos] });
}

const asMessage = (d: PackageDefinition[string] | undefined): MessageDescriptor | undefined => {
  const m = d as unknown as MessageDescriptor | undefined;
  return m && 'format' in m && m.type.field ? m : undefined;
};

/** What the previous release's contracts have that this release's changed or removed, one line each. */
function breakingChanges(before: PackageDefinition, after: PackageDefinition): string[] {
  const found: string[] = [];
  for (const [name, old] of Object.entries(before)) {
    const now = after[name];
    const oldMessage = asMessage(old);
    if (oldMessage) {
      // A message no longer there is no longer used: what used it (a method, a field) is what changed.
      const fields = new Map((asMessage(now)?.type.field ?? []).map((f) => [f.number, f]));
      if (!asMessage(now)) continue;
      for (const f of oldMessage.type.field!) {
        const g = fields.get(f.number);
        if (!g) found.push(`${name}.${f.name} (${f.number}) removed`);
        else if (g.type !== f.type || g.typeName !== f.typeName || g.label !== f.label)
          found.push(`${name}.${f.name} (${f.number}) was ${fieldType(f)}, is ${fieldType(g)}`);
      }
      continue;
    }
    if ('format' in old) continue; // an enum
    for (const [method, m] of Object.entries(old as Record<string, MethodDescriptor>)) {
      const n = (now as Record<string, MethodDescriptor> | undefined)?.[method];
      if (!n) found.push(`${name}.${method} removed`);
      else if (signature(n) !== signature(m)) found.push(`${name}.${method} was ${signature(m)}, is ${signature(n)}`);
    }
  }
  return found;
}

const fieldType = (f: FieldDescriptor) => `${f.label.replace('LABEL_', '').toLowerCase()} ${f.typeName || f.type}`;
const signature = (m: MethodDescriptor) =>
  `(${m.requestStream ? 'stream ' : ''}${m.requestType.type.name}) returns (${m.responseStream ? 'stream ' : ''}${m.responseType.type.name})`;

describe('gRPC contracts across the upgrade', () => {
  it("keeps every method and field of the previous release's contracts as it was on the wire", () => {
    const changes = breakingChanges(contracts(inject('previousRelease')), contracts(repoRoot));
    expect(
      changes,
      `changed in place since ${previousReleaseCommit()}: add a method or a field instead (docs/operations.md#upgrades)`,
    ).toEqual([]);
  });

  it('finds a response type or a field changed in place (issue 40 changed ListMessages so)', () => {
    const before = contracts(repoRoot);
    const service = before['wms.messaging.v1.MessagingService'] as Record<string, MethodDescriptor>;
    const user = asMessage(before['wms.common.v1.User'])!;
    const after: PackageDefinition = {
      ...before,
      'wms.messaging.v1.MessagingService': {
        ...service,
        ListMessages: { ...service.ListMessages!, responseType: { type: { name: 'MessagePage' } } },
      } as unknown as PackageDefinition[string],
      'wms.common.v1.User': {
        ...user,
        type: {
          ...user.type,
          field: user.type.field!.map((f) => (f.name === 'email' ? { ...f, type: 'TYPE_BYTES' } : f)),
        },
      } as unknown as PackageDefinition[string],
    };
    expect(breakingChanges(before, after)).toEqual([
      'wms.common.v1.User.email (2) was optional TYPE_STRING, is optional TYPE_BYTES',
      'wms.messaging.v1.MessagingService.ListMessages was (ListMessagesRequest) returns (JsonBody), is (ListMessagesRequest) returns (MessagePage)',
    ]);
  });
});
