import type { Asset, Message } from '../../lib/types.ts';

/** `GET .../assets/{id}/download`: a URL serving the bytes for five minutes. */
export interface AssetDownload {
  url: string;
  expires_at: string;
  name: string;
  content_type: string;
  size_bytes: number;
}

/** The message with one of its assets replaced (an upload's answer). */
export const withAsset = (message: Message, asset: Asset): Message => ({
  ...message,
  assets: message.assets.map((a) => (a.id === asset.id ? asset : a)),
});
