// Original file: common/v1/common.proto


export interface NullableString {
  'value'?: (string);
  '_value'?: "value";
}

export interface NullableString__Output {
  'value'?: (string);
  '_value'?: "value";
}
