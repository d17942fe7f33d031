import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError } from '../../lib/api.ts';
import { changeMessage } from '../messages/cache.ts';
import { useWorkspace } from '../workspace/context.ts';
import type { Asset, Message } from '../../lib/types.ts';
import { withAsset } from './types.ts';
import { uploadAssetContent } from './upload.ts';

/** A file on its way up: bytes sent of the request's total, or why it failed. */
export interface Uploading {
  id: string;
  name: string;
  sent: number;
  total: number;
  error?: string;
}

export interface Reserved {
  asset: Asset;
  file: File;
}

export type Attachments = ReturnType<typeof useAttachments>;

/**
 * The files a composer attaches, in the order the API asks (docs/api.md "Assets"): each reserved, the message posted
 * with their ids, then each uploaded with its progress shown. Readers see the files arrive (`message.updated`).
 */
export function useAttachments(conversationId: string) {
  const { caller } = useWorkspace();
  const queryClient = useQueryClient();
  const [files, setFiles] = useState<File[]>([]);
  // A new file input after each post: its chosen files cannot be set from script, only cleared by replacing it.
  const [inputKey, setInputKey] = useState(0);
  const [uploads, setUploads] = useState<Uploading[]>([]);

  const reserve = (files: File[]): Promise<Reserved[]> =>
    Promise.all(
      files.map(async (file) => {
        const asset = await api<Asset>(caller, 'POST', `/conversations/${conversationId}/assets`, {
          name: file.name,
          content_type: file.type || 'application/octet-stream',
          size_bytes: file.size,
        });
        return { asset, file };
      }),
    );

  const change = (id: string, next: Partial<Uploading>) =>
    setUploads((all) => all.map((u) => (u.id === id ? { ...u, ...next } : u)));

  /** Uploads the files reserved for the posted message; each one's answer marks it ready in the cache. */
  const upload = (message: Message, reserved: Reserved[]) => {
    // Files picked while the message was being sent stay for the next one.
    setFiles((all) => all.filter((f) => !reserved.some((r) => r.file === f)));
    setInputKey((k) => k + 1);
    setUploads((all) => [
      ...all,
      ...reserved.map(({ asset, file }) => ({ id: asset.id, name: file.name, sent: 0, total: file.size })),
    ]);
    for (const { asset, file } of reserved) {
      uploadAssetContent(caller, asset, file, (sent, total) => change(asset.id, { sent, total }))
        .then((ready) => {
          setUploads((all) => all.filter((u) => u.id !== asset.id));
          changeMessage(queryClient, caller.workspaceId, message.conversation_id, message.id, (m) =>
            withAsset(m, ready),
          );
        })
        .catch((err: unknown) => change(asset.id, { error: err instanceof ApiError ? err.message : 'Not uploaded.' }));
    }
  };

  return { files, setFiles, inputKey, uploads, reserve, upload };
}
