import type { Message } from '../../lib/types.ts';

/** An uploaded (or reserved) file, as the asset routes answer it and as a message carries it in `assets`. */
export interface Asset {
  id: string;
  conversation_id: string;
  message_id: string | null;
  name: string;
  size_bytes: number;
  content_type: string;
  /** `pending` until its content is uploaded; a ready asset never changes. */
  status: 'pending' | 'ready';
  preview_kind: 'image' | null;
}

/** `GET .../assets/{id}/download`: a URL serving the bytes for five minutes. */
export interface AssetDownload {
  url: string;
  expires_at: string;
  name: string;
  content_type: string;
  size_bytes: number;
}

/** The files attached to a message (none on a deleted one). */
export const assetsOf = (message: Message): Asset[] => (message as Message & { assets?: Asset[] }).assets ?? [];

/** The message with one of its assets replaced (an upload's answer). */
export const withAsset = (message: Message, asset: Asset): Message =>
  ({
    ...message,
    assets: assetsOf(message).map((a) => (a.id === asset.id ? asset : a)),
  }) as Message;
