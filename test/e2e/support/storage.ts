import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';

/** Every file the fs driver of the shared test cluster keeps for an asset: its bytes and their metadata. */
export async function storedAssetFiles(workspaceId: string, assetId: string): Promise<string[]> {
  const dir = inject('storageDir');
  const roots = [path.join(dir, 'assets', workspaceId, assetId), path.join(dir, '.meta', 'assets', workspaceId, assetId)];
  const listed = await Promise.all(
    roots.map((root) =>
      readdir(root, { recursive: true }).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return [];
        throw err;
      }),
    ),
  );
  return listed.flat();
}
