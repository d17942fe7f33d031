// Original file: workspace/v1/workspace.proto


export interface SetAvatarRequest {
  'actor_id'?: (string);
  'content'?: (Buffer | Uint8Array | string);
}

export interface SetAvatarRequest__Output {
  'actor_id': (string);
  'content': (Buffer);
}
