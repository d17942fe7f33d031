// Original file: realtime/v1/realtime.proto


export interface AuthenticateUserRequest {
  'socket_id'?: (string);
}

export interface AuthenticateUserRequest__Output {
  'socket_id': (string);
}
