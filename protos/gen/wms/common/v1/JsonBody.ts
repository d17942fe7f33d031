// Original file: common/v1/common.proto


export interface JsonBody {
  'json'?: (Buffer | Uint8Array | string);
}

export interface JsonBody__Output {
  'json': (Buffer);
}
