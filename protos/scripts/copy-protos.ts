// Copies the .proto files into dist/ after tsc: the built loader (dist/src/index.js) reads them from the folder above
// its own, as the source one does from protos/, so the built package is self-contained.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

function copyProtos(dir: string): void {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory() && file !== 'node_modules' && file !== 'dist') copyProtos(file);
    else if (entry.isFile() && entry.name.endsWith('.proto')) {
      fs.mkdirSync(path.join(root, 'dist', dir), { recursive: true });
      fs.copyFileSync(path.join(root, file), path.join(root, 'dist', file));
    }
  }
}

copyProtos('');
