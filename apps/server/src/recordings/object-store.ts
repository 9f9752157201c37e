import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { z } from 'zod';

/** S3-compatible object storage for recordings and videos (GATEHOUSE_S3_*; docs/deploy/object-storage.md). */
export interface ObjectStorageConfig {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string;
  /** Never enumerable: JSON.stringify, spreads and loggers do not see it. */
  readonly secretAccessKey: string;
  forcePathStyle: boolean;
  /** Prefix of every key ('' or ending in '/'). */
  prefix: string;
}

const text = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const S3Env = z.object({
  GATEHOUSE_S3_ENDPOINT: text.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  GATEHOUSE_S3_BUCKET: text.pipe(
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3-63 of a-z, 0-9, dot, hyphen)')
      .optional(),
  ),
  GATEHOUSE_S3_REGION: text.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a region name')
      .optional(),
  ),
  GATEHOUSE_S3_ACCESS_KEY_ID: text.pipe(z.string().max(256, 'is too long').optional()),
  GATEHOUSE_S3_SECRET_ACCESS_KEY: text.pipe(z.string().max(1024, 'is too long').optional()),
  GATEHOUSE_S3_FORCE_PATH_STYLE: z.enum(['true', 'false', ''], { error: 'must be true or false' }).optional(),
  GATEHOUSE_S3_PREFIX: text.pipe(
    z
      .string()
      .max(200, 'is too long')
      .regex(/^[A-Za-z0-9!_.*'()/-]*$/, "may hold letters, digits and !_.*'()/- only")
      .optional(),
  ),
});

/**
 * The object storage settings from the environment, or undefined when GATEHOUSE_S3_BUCKET is not
 * set. Throws an Error listing every problem; no message ever repeats the secret's value.
 */
export function objectStorageFromEnv(env: NodeJS.ProcessEnv): ObjectStorageConfig | undefined {
  const parsed = S3Env.safeParse(env);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n  '));
  }
  const e = parsed.data;
  const anySet = Object.entries(e).some(([k, v]) => k !== 'GATEHOUSE_S3_FORCE_PATH_STYLE' && v !== undefined);
  if (!anySet) return undefined;
  const missing = (
    [
      ['GATEHOUSE_S3_BUCKET', e.GATEHOUSE_S3_BUCKET],
      ['GATEHOUSE_S3_ACCESS_KEY_ID', e.GATEHOUSE_S3_ACCESS_KEY_ID],
      ['GATEHOUSE_S3_SECRET_ACCESS_KEY', e.GATEHOUSE_S3_SECRET_ACCESS_KEY],
    ] as const
  )
    .filter(([, v]) => v === undefined)
    .map(([k]) => `${k}: must be set with the other GATEHOUSE_S3_ settings`);
  if (missing.length > 0) throw new Error(missing.join('\n  '));
  const prefix = (e.GATEHOUSE_S3_PREFIX ?? '').replace(/^\/+/, '');
  const config = {
    endpoint: e.GATEHOUSE_S3_ENDPOINT,
    bucket: e.GATEHOUSE_S3_BUCKET as string,
    region: e.GATEHOUSE_S3_REGION ?? 'us-east-1',
    accessKeyId: e.GATEHOUSE_S3_ACCESS_KEY_ID as string,
    forcePathStyle: e.GATEHOUSE_S3_FORCE_PATH_STYLE === 'true',
    prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`,
  } as ObjectStorageConfig;
  Object.defineProperty(config, 'secretAccessKey', {
    value: e.GATEHOUSE_S3_SECRET_ACCESS_KEY,
    enumerable: false,
  });
  return config;
}

/** An object storage error in words that name no secret (its code and HTTP status only). */
export function storageError(error: unknown): string {
  const e = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number }; message?: string };
  const status = e.$metadata?.httpStatusCode;
  return `${e.name ?? e.code ?? 'Error'}${status ? ` (HTTP ${status})` : ''}`;
}

/** Files larger than this go up as a multipart upload (lib-storage) instead of one PUT. */
const MULTIPART_FROM = 16 * 1024 * 1024;

/** One bucket of an S3-compatible object storage, through the AWS SDK's own client. */
export class ObjectStore {
  readonly client: S3Client;
  readonly bucket: string;
  readonly prefix: string;

  constructor(config: ObjectStorageConfig) {
    this.bucket = config.bucket;
    this.prefix = config.prefix;
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // Checksums only where S3 requires them: many S3-compatible servers do not accept the
      // aws-chunked trailers the SDK would otherwise add to every upload.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
  }

  /** The key prefix of a recording's objects. */
  recordingKey(id: string): string {
    return `${this.prefix}recordings/${id}`;
  }

  /** Whether the bucket exists and these credentials may use it (HeadBucket); throws when not. */
  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  async put(key: string, body: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body }));
  }

  /** Uploads a file: one PUT when small, a multipart upload (5 MiB+ parts) when large. */
  async putFile(key: string, file: string): Promise<number> {
    const { size } = await fsp.stat(file);
    if (size < MULTIPART_FROM) {
      await this.put(key, await fsp.readFile(file));
      return size;
    }
    await new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: fs.createReadStream(file) },
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
    }).done();
    return size;
  }

  /** Uploads a stream of unknown length as one object (multipart, 8 MiB parts). */
  async putStream(key: string, body: Readable): Promise<void> {
    await new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body },
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
    }).done();
  }

  /** Bytes start..end (inclusive) of an object, streamed; the whole object without a range. */
  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const answer = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    return answer.Body as Readable;
  }

  /** Writes an object to a file (created 0600). */
  async download(key: string, file: string): Promise<void> {
    await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await pipeline(await this.read(key), fs.createWriteStream(file, { mode: 0o600 }));
  }

  /** An object's size, or undefined when there is none. */
  async size(key: string): Promise<number | undefined> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength;
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404) return undefined;
      throw error;
    }
  }

  /** Every key under a prefix, in key order. */
  async list(prefix: string): Promise<{ key: string; size: number }[]> {
    const found: { key: string; size: number }[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key) found.push({ key: o.Key, size: o.Size ?? 0 });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Deletes keys, 1000 per request. */
  async remove(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true },
        }),
      );
    }
  }

  /** Deletes everything under a prefix. */
  async removeAll(prefix: string): Promise<void> {
    await this.remove((await this.list(prefix)).map((o) => o.key));
  }

  close(): void {
    this.client.destroy();
  }
}
