// Original file: messaging/v1/messaging.proto


export interface ListChannelsRequest {
}

export interface ListChannelsRequest__Output {
}
