import S3rver from 's3rver';

/** A real S3-compatible server (s3rver from npm, ADR 0008) on a random (or given) loopback port, over a folder. */
export interface S3Server {
  server: S3rver;
  port: number;
  /** The GATEHOUSE_S3_* settings that point a server at it (credentials S3RVER; s3rver checks no signature). */
  env(bucket?: string, extra?: Record<string, string>): Record<string, string>;
}

export async function startS3Server(
  directory: string,
  options: { buckets: string[]; port?: number },
): Promise<S3Server> {
  const server = new S3rver({
    port: options.port ?? 0,
    address: '127.0.0.1',
    directory,
    silent: true,
    configureBuckets: options.buckets.map((name) => ({ name, configs: [] })),
  });
  const { port } = await server.run();
  return {
    server,
    port,
    env: (bucket = options.buckets[0] ?? 'gatehouse', extra = {}) => ({
      GATEHOUSE_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      GATEHOUSE_S3_BUCKET: bucket,
      GATEHOUSE_S3_REGION: 'us-east-1',
      GATEHOUSE_S3_ACCESS_KEY_ID: 'S3RVER',
      GATEHOUSE_S3_SECRET_ACCESS_KEY: 'S3RVER',
      GATEHOUSE_S3_FORCE_PATH_STYLE: 'true',
      ...extra,
    }),
  };
}
