// Original file: realtime/v1/realtime.proto


export interface RealtimeConfig {
  'app_key'?: (string);
  'cluster'?: (string);
  'ws_host'?: (string);
  'ws_port'?: (number);
  'wss_port'?: (number);
  'ws_path'?: (string);
  'force_tls'?: (boolean);
}

export interface RealtimeConfig__Output {
  'app_key': (string);
  'cluster': (string);
  'ws_host': (string);
  'ws_port': (number);
  'wss_port': (number);
  'ws_path': (string);
  'force_tls': (boolean);
}
