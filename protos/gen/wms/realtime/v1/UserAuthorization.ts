// Original file: realtime/v1/realtime.proto


export interface UserAuthorization {
  'auth'?: (string);
  'user_data'?: (string);
}

export interface UserAuthorization__Output {
  'auth': (string);
  'user_data': (string);
}
