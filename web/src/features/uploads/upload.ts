import { ApiError, type Caller } from '../../lib/api.ts';
import type { Asset } from '../../lib/types.ts';

/**
 * `PUT .../assets/{id}/content` through XMLHttpRequest, whose upload events tell how much was sent (fetch cannot):
 * `onProgress` gets the bytes sent and the request's total. Answers the ready asset, or an ApiError as api() does.
 */
export function uploadAssetContent(
  caller: Caller,
  asset: Asset,
  file: File,
  onProgress: (sent: number, total: number) => void,
): Promise<Asset> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', `/conversations/${asset.conversation_id}/assets/${asset.id}/content`);
    if (caller.token) xhr.setRequestHeader('Authorization', `Bearer ${caller.token}`);
    if (caller.workspaceId) xhr.setRequestHeader('X-Workspace-Id', caller.workspaceId);
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) onProgress(e.loaded, e.total);
    });
    xhr.addEventListener('load', () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body) return resolve(body as Asset);
      const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
      reject(
        new ApiError(
          xhr.status,
          error?.code ?? 'unknown',
          error?.message ?? `The server answered ${xhr.status}.`,
          xhr.getResponseHeader('X-Request-Id'),
        ),
      );
    });
    xhr.addEventListener('error', () => reject(new ApiError(0, 'network', 'The upload was cut off.', null)));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
