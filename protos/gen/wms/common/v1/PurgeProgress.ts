// Original file: common/v1/common.proto


export interface PurgeProgress {
  'done'?: (boolean);
}

export interface PurgeProgress__Output {
  'done': (boolean);
}
