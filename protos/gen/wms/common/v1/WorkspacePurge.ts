// Original file: common/v1/common.proto


export interface WorkspacePurge {
  'workspace_id'?: (string);
}

export interface WorkspacePurge__Output {
  'workspace_id': (string);
}
