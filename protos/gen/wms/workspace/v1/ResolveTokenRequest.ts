// Original file: workspace/v1/workspace.proto


export interface ResolveTokenRequest {
  'secret_sha256'?: (Buffer | Uint8Array | string);
}

export interface ResolveTokenRequest__Output {
  'secret_sha256': (Buffer);
}
