import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { useWorkspace } from '../workspace/context.ts';
import type { Asset } from '../../lib/types.ts';
import type { AssetDownload } from './types.ts';
import './attachments.css';

const downloadPath = (a: Asset) => `/conversations/${a.conversation_id}/assets/${a.id}/download`;

/** A message's files: images as previews, other files as downloads, each marked while its upload is under way. */
export function AttachmentList({ assets }: { assets: Asset[] }) {
  if (assets.length === 0) return null;
  return (
    <ul className="attachments" aria-label="Attachments">
      {assets.map((a) => (
        <li key={a.id}>
          {a.status === 'pending' ? (
            <span className="attachment-pending">{a.name} (uploading…)</span>
          ) : a.preview_kind === 'image' ? (
            <ImagePreview asset={a} />
          ) : (
            <Download asset={a} />
          )}
        </li>
      ))}
    </ul>
  );
}

/** The image from its download URL, asked for again before the URL's five minutes are up. */
function ImagePreview({ asset }: { asset: Asset }) {
  const { caller } = useWorkspace();
  const download = useQuery({
    queryKey: ['asset-download', caller.workspaceId, asset.id],
    queryFn: () => api<AssetDownload>(caller, 'GET', downloadPath(asset)),
    staleTime: 4 * 60_000,
  });
  if (!download.data) return <span className="attachment-pending">{asset.name}</span>;
  return <img className="attachment-image" src={download.data.url} alt={asset.name} />;
}

/** A file that is not an image: a fresh URL is asked for when it is wanted, and the browser downloads it. */
function Download({ asset }: { asset: Asset }) {
  const { caller } = useWorkspace();
  const fetchUrl = useMutation({
    mutationFn: () => api<AssetDownload>(caller, 'GET', downloadPath(asset)),
    // The URL answers the file as an attachment: the browser saves it and the app stays.
    onSuccess: (d) => window.location.assign(d.url),
  });
  return (
    <button type="button" className="attachment-file" onClick={() => fetchUrl.mutate()} disabled={fetchUrl.isPending}>
      Download {asset.name} ({Math.max(1, Math.round(asset.size_bytes / 1024))} KB)
    </button>
  );
}
