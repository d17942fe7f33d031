// Original file: workspace/v1/workspace.proto


export interface ListInvitationsRequest {
  'status'?: (string);
  'cursor'?: (string);
  'limit'?: (number);
  '_cursor'?: "cursor";
}

export interface ListInvitationsRequest__Output {
  'status': (string);
  'cursor'?: (string);
  'limit': (number);
  '_cursor'?: "cursor";
}
