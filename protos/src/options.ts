import type { Options } from '@grpc/proto-loader';

/** The one set of proto-loader options, used both to load the protos and to generate their types. */
export const protoLoaderOptions = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  arrays: true,
  oneofs: true,
} satisfies Options;

/** Flags for proto-loader-gen-types matching `protoLoaderOptions`. */
export const genTypesFlags = [
  '--keepCase',
  '--longs=Number',
  '--enums=String',
  '--defaults',
  '--arrays',
  '--oneofs',
  '--grpcLib=@grpc/grpc-js',
];
