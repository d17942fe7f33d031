// Original file: workspace/v1/workspace.proto


export interface CreateAgentActorRequest {
  'display_name'?: (string);
  'title'?: (string);
  '_title'?: "title";
}

export interface CreateAgentActorRequest__Output {
  'display_name': (string);
  'title'?: (string);
  '_title'?: "title";
}
