import path from 'node:path';
import { z } from 'zod';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '@gatehouse/contracts';
import { HTTP_CONNECTION_DEFAULTS } from './http/connection-limits.js';
import { type ConfiguredRecordingKey, recordingKeyFromEnv } from './recordings/signing-keys.js';
import { type ObjectStorageConfig, objectStorageFromEnv } from './recordings/object-store.js';

const port = z.coerce.number().int().min(0).max(65535);
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** Environment variables the server reads, validated at start. */
const EnvSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  GATEHOUSE_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalText.pipe(
    z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
  ),
  GATEHOUSE_ADMIN_EMAIL: optionalText.pipe(
    z.email({ error: 'must be an email address' }).max(MAX_EMAIL_LENGTH).optional(),
  ),
  GATEHOUSE_ADMIN_PASSWORD: optionalText.pipe(
    z
      .string()
      .min(MIN_PASSWORD_LENGTH, `must have at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(MAX_PASSWORD_LENGTH)
      .optional(),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GATEHOUSE_LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(30),
  GATEHOUSE_BUILD_TAG: z.string().min(1).default('dev'),
  GATEHOUSE_WEB_DIR: optionalText,
  GATEHOUSE_TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  GATEHOUSE_HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(HTTP_CONNECTION_DEFAULTS.total),
  GATEHOUSE_HTTP_PER_ADDRESS: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .default(HTTP_CONNECTION_DEFAULTS.perAddress),
  GATEHOUSE_SECRET_KEY: optionalText,
  GATEHOUSE_SSH_PORT: port.default(2222),
  GATEHOUSE_TLS_PORT: z.preprocess((v) => (v === '' ? undefined : v), port.optional()),
  GATEHOUSE_DEV_LICENSES: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  GATEHOUSE_SSH_HOST: optionalText,
  GATEHOUSE_SSH_PUBLIC_ADDRESS: optionalText.pipe(
    z
      .string()
      .regex(
        /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]{2,45}\])(?::(?:[1-9]\d{0,4}))?$/,
        'must be the address clients reach the SSH gateway at: host, host:port or [IPv6]:port',
      )
      .refine((v) => Number(/:(\d+)$/.exec(v)?.[1] ?? 1) <= 65535, 'the port must be from 1 to 65535')
      .optional(),
  ),
  REDIS_URL: optionalText.pipe(
    z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  ),
  GATEHOUSE_DB_WAIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  GATEHOUSE_DB_OUTAGE_GRACE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  GATEHOUSE_PUBLIC_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  GATEHOUSE_RECORDING_KEY: optionalText,
  GATEHOUSE_RECORDING_KEY_FILE: optionalText,
  GATEHOUSE_ADVERTISE_URL: optionalText.pipe(
    z.url({ protocol: /^https?$/, error: 'must be an http(s) URL the other instances reach this one at' }).optional(),
  ),
  GATEHOUSE_CLUSTER_SECRET: optionalText.pipe(
    z.string().min(32, 'must have at least 32 characters (openssl rand -hex 32)').optional(),
  ),
  GATEHOUSE_DRAIN_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
});

/** The server's validated configuration. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** How long to keep trying to reach PostgreSQL at start (seconds). */
  databaseWaitSeconds: number;
  /** How long live sessions go on while the database is away (seconds). */
  databaseOutageGraceSeconds: number;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  /** Sign-in attempts allowed per source address per minute. */
  loginRateLimitPerMinute: number;
  buildTag: string;
  /** Folder of the built console; undefined serves no console (API only). */
  webDir: string | undefined;
  trustProxy: boolean;
  /**
   * Sockets of the HTTP (and HTTPS) listener: in all, and from one address until a WebSocket on
   * it authenticates (0: no cap; off behind a trusted proxy, whose address every client shares).
   * Unset: HTTP_CONNECTION_DEFAULTS.
   */
  httpConnections?: { total: number; perAddress: number };
  /** Key for secrets at rest; unset means the data folder's secret.key. */
  secretKey: string | undefined;
  /** Port and address of the SSH gateway. */
  sshPort: number;
  sshHost: string;
  /**
   * Where clients reach the SSH gateway (GATEHOUSE_SSH_PUBLIC_ADDRESS, e.g. behind a load balancer);
   * unset: the listening address and port (My access builds its commands from them).
   */
  sshPublicAddress?: { host: string; port: number | undefined } | undefined;
  /** Redis for fanning socket events out across instances; unset keeps them in this process. */
  redisUrl: string | undefined;
  /** How people reach the console, for links in mail; unset means http://HOST:PORT. */
  publicUrl: string | undefined;
  /** Port of HTTPS with the ingress certificate (0: any free port); unset serves no HTTPS. */
  tlsPort: number | undefined;
  /** Accept licences signed with the development key (tests and demos only). */
  devLicenses: boolean;
  /**
   * The Ed25519 key that signs recordings (GATEHOUSE_RECORDING_KEY, or the file named by
   * GATEHOUSE_RECORDING_KEY_FILE); unset keeps the one sealed in the database.
   */
  recordingKey?: ConfiguredRecordingKey;
  /**
   * Where the other server instances reach this one for relays (GATEHOUSE_ADVERTISE_URL); unset
   * means http://HOST:PORT as listened (cluster/relay-endpoint.ts, docs/deploy/cluster.md).
   */
  advertiseUrl?: string;
  /**
   * The secret that signs relays between instances (GATEHOUSE_CLUSTER_SECRET); unset keeps one made
   * once and sealed in the database (cluster/cluster-secret.ts).
   */
  clusterSecret?: string;
  /**
   * On SIGTERM/SIGINT: how long live SSH sessions and tunnels may go on (seconds) before they are
   * ended, recorded; new ones are refused from the signal on (docs/deploy/server.md). Unset: 30.
   */
  drainSeconds?: number;
  /** S3-compatible object storage for recordings and videos (GATEHOUSE_S3_*); unset keeps them on local disk. */
  objectStorage?: ObjectStorageConfig;
}

/** Thrown when the environment is invalid; its message lists every problem. */
export class ConfigError extends Error {}

/** Reads and validates the configuration from an environment. */
export function loadConfig(env: NodeJS.ProcessEnv, defaultWebDir?: string): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration in the environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  let recordingKey: ConfiguredRecordingKey | undefined;
  try {
    recordingKey = recordingKeyFromEnv(e, path.resolve(e.GATEHOUSE_DATA_DIR));
  } catch (error) {
    throw new ConfigError(`Invalid configuration in the environment:\n  ${(error as Error).message}`);
  }
  let objectStorage: ObjectStorageConfig | undefined;
  try {
    objectStorage = objectStorageFromEnv(env);
  } catch (error) {
    throw new ConfigError(`Invalid configuration in the environment:\n  ${(error as Error).message}`);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.GATEHOUSE_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseWaitSeconds: e.GATEHOUSE_DB_WAIT_SECONDS,
    databaseOutageGraceSeconds: e.GATEHOUSE_DB_OUTAGE_GRACE_SECONDS,
    adminEmail: e.GATEHOUSE_ADMIN_EMAIL?.toLowerCase(),
    adminPassword: e.GATEHOUSE_ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
    loginRateLimitPerMinute: e.GATEHOUSE_LOGIN_RATE_LIMIT,
    buildTag: e.GATEHOUSE_BUILD_TAG,
    webDir: e.GATEHOUSE_WEB_DIR ? path.resolve(e.GATEHOUSE_WEB_DIR) : defaultWebDir,
    trustProxy: e.GATEHOUSE_TRUST_PROXY === 'true',
    httpConnections: {
      total: e.GATEHOUSE_HTTP_MAX_CONNECTIONS,
      perAddress: e.GATEHOUSE_TRUST_PROXY === 'true' ? 0 : e.GATEHOUSE_HTTP_PER_ADDRESS,
    },
    secretKey: e.GATEHOUSE_SECRET_KEY,
    redisUrl: e.REDIS_URL,
    sshPort: e.GATEHOUSE_SSH_PORT,
    sshHost: e.GATEHOUSE_SSH_HOST ?? e.HOST,
    sshPublicAddress: publicAddress(e.GATEHOUSE_SSH_PUBLIC_ADDRESS),
    publicUrl: e.GATEHOUSE_PUBLIC_URL?.replace(/\/+$/, ''),
    tlsPort: e.GATEHOUSE_TLS_PORT,
    devLicenses: e.GATEHOUSE_DEV_LICENSES === 'true',
    recordingKey,
    advertiseUrl: e.GATEHOUSE_ADVERTISE_URL?.replace(/\/+$/, ''),
    clusterSecret: e.GATEHOUSE_CLUSTER_SECRET,
    drainSeconds: e.GATEHOUSE_DRAIN_SECONDS,
    objectStorage,
  };
}

/** `host`, `host:port` or `[v6]:port` (already validated) as host (brackets off) and port. */
function publicAddress(value: string | undefined): Config['sshPublicAddress'] {
  if (value === undefined) return undefined;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(value);
  return {
    host: (match?.[1] ?? value).replace(/^\[|\]$/g, ''),
    port: match?.[2] === undefined ? undefined : Number(match[2]),
  };
}
