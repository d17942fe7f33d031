// Generates TypeScript types from the protos into gen/; with --check, fails when gen/ differs from a fresh run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { protoFiles, protoRoot } from '../src/index.ts';
import { genTypesFlags } from '../src/options.ts';

const check = process.argv.includes('--check');
const genDir = path.join(protoRoot, 'gen');
const outDir = check ? fs.mkdtempSync(path.join(os.tmpdir(), 'wms-protos-')) : genDir;
if (!check) fs.rmSync(genDir, { recursive: true, force: true });

const bin = path.join(protoRoot, 'node_modules', '.bin', 'proto-loader-gen-types');
execFileSync(
  bin,
  [
    ...genTypesFlags,
    `--includeDirs=${protoRoot}`,
    `--outDir=${outDir}`,
    '--importFileExtension=.ts',
    ...Object.values(protoFiles),
  ],
  {
    cwd: protoRoot,
    stdio: 'inherit',
  },
);

// The generator writes each proto's absolute path into a comment; keep gen/ independent of where the checkout lives.
for (const file of fs.readdirSync(outDir, { recursive: true, encoding: 'utf8' })) {
  const full = path.join(outDir, file);
  if (!fs.statSync(full).isFile()) continue;
  fs.writeFileSync(full, fs.readFileSync(full, 'utf8').replaceAll(`${protoRoot}/`, ''));
}

if (check) {
  const list = (dir: string): string[] =>
    fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => fs.statSync(path.join(dir, f)).isFile())
      .sort();
  const fresh = list(outDir);
  const committed = list(genDir);
  const drift = [...new Set([...fresh, ...committed])].filter((f) => {
    const a = path.join(outDir, f);
    const b = path.join(genDir, f);
    return !fs.existsSync(a) || !fs.existsSync(b) || fs.readFileSync(a, 'utf8') !== fs.readFileSync(b, 'utf8');
  });
  fs.rmSync(outDir, { recursive: true, force: true });
  if (drift.length > 0) {
    console.error(`protos/gen is out of date (${drift.join(', ')}); run: pnpm protos:gen`);
    process.exit(1);
  }
  console.log('protos/gen matches the protos');
}
