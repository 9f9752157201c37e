import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** People who sign in. Emails are stored lower-case and are unique. */
export const users = pgTable('users', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  email: text('email').notNull().unique(),
  name: text('name'),
  photoUrl: text('photo_url'),
  /** argon2id hash; null for accounts that sign in only through a directory or SSO. */
  passwordHash: text('password_hash'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** False only for a self sign-up whose verification link was not opened yet (migration 0013). */
  emailVerified: boolean('email_verified').notNull().default(true),
  /** The last successful directory or single sign-on sign-in (SSH keys follow it when SSO is on). */
  lastExternalSignInAt: timestamp('last_external_sign_in_at', { withTimezone: true }),
});

/** Named sets of permissions. */
export const roles = pgTable('roles', {
  name: text('name').primaryKey(),
  builtin: boolean('builtin').notNull().default(false),
  createdAt: createdAt(),
  /** Holders must enrol a second factor before anything else (migration 0029). */
  requireTwoFactor: boolean('require_two_factor').notNull().default(false),
});

export const rolePermissions = pgTable(
  'role_permissions',
  {
    roleName: text('role_name')
      .notNull()
      .references(() => roles.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    permission: text('permission').notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleName, t.permission] })],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleName: text('role_name')
      .notNull()
      .references(() => roles.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleName] }), index('user_roles_role_idx').on(t.roleName)],
);

/** Bearer tokens, stored as SHA-256 of the random secret. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull().default('session'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('auth_tokens_user_idx').on(t.userId), index('auth_tokens_expiry_idx').on(t.expiresAt)],
);

/** Failed sign-ins per email, whether or not the account exists, so locking reveals nothing. */
export const loginFailures = pgTable('login_failures', {
  emailKey: text('email_key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/** Fixed-window counters shared by every server instance. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});

/** Who did what, to what, with what outcome, from where. Append-only. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid('actor_id'),
    actor: text('actor'),
    action: text('action').notNull(),
    target: text('target'),
    outcome: text('outcome').notNull(),
    status: smallint('status'),
    source: text('source'),
    detail: jsonb('detail'),
  },
  (t) => [
    index('audit_log_action_idx').on(t.action, t.id),
    index('audit_log_at_idx').on(t.at, t.id),
    index('audit_log_action_at_idx').on(t.action, t.at, t.id),
    index('audit_log_outcome_at_idx').on(t.outcome, t.at, t.id),
  ],
);

/** Delivery of the audit trail to each SIEM sink (migration 0028), shared by every instance. */
export const auditSinks = pgTable('audit_sinks', {
  sink: text('sink').primaryKey(),
  deliveredId: bigint('delivered_id', { mode: 'number' }).notNull().default(0),
  leaseOwner: text('lease_owner'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
  lastDeliveryAt: timestamp('last_delivery_at', { withTimezone: true }),
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
});

/** Settings documents by key (security, auth, general ...). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Hosts running the agent. Filled by agent registration (issue 4). */
export const agents = pgTable('agents', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  hostname: text('hostname').notNull(),
  os: smallint('os').notNull().default(1),
  version: text('version'),
  connected: boolean('connected').notNull().default(false),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  createdAt: createdAt(),
  /** SHA-256 of the agent's own credential; gone when the agent is deleted. */
  credentialHash: text('credential_hash').unique(),
  config: jsonb('config'),
  registeredWith: uuid('registered_with'),
  /** The server instance holding its connection (migration 0017). */
  instanceId: uuid('instance_id'),
  /** The host's last RDP capture failure, as reported or found (migration 0024); null: none yet. */
  captureError: text('capture_error'),
  /** When that failure was reported. */
  captureErrorAt: timestamp('capture_error_at', { withTimezone: true }),
});

/** Security groups: users and agents, and other groups nested inside. */
export const groups = pgTable('groups', {
  name: text('name').primaryKey(),
  createdAt: createdAt(),
});

export const groupUsers = pgTable(
  'group_users',
  {
    groupName: text('group_name').notNull(),
    userId: uuid('user_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupName, t.userId] })],
);

export const groupAgents = pgTable(
  'group_agents',
  {
    groupName: text('group_name').notNull(),
    agentId: uuid('agent_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupName, t.agentId] })],
);

/** parent contains child: the child's members belong to the parent too. */
export const groupGroups = pgTable(
  'group_groups',
  {
    parent: text('parent').notNull(),
    child: text('child').notNull(),
  },
  (t) => [primaryKey({ columns: [t.parent, t.child] })],
);

/** Registration keys for agents, stored as SHA-256 of the secret. */
export const apiKeys = pgTable('api_keys', {
  uuid: uuid('uuid')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  description: text('description').notNull(),
  keyHash: text('key_hash').notNull().unique(),
  createdAt: createdAt(),
  createdBy: text('created_by'),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  /** After this instant the key enrols nothing (migration 0014). */
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  /** Agents it may enrol in all, and how many more (taken one by one in a single UPDATE). */
  uses: integer('uses').notNull(),
  usesLeft: integer('uses_left').notNull(),
});

/** SSH public keys users register for the gateway. */
export const userSshKeys = pgTable('user_ssh_keys', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  userId: uuid('user_id').notNull(),
  name: text('name').notNull(),
  keyType: text('key_type').notNull(),
  publicKey: text('public_key').notNull(),
  fingerprint: text('fingerprint').notNull(),
  createdAt: createdAt(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
});

/** Single-use password reset tokens, stored as SHA-256. */
export const passwordResetTokens = pgTable('password_reset_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  userId: uuid('user_id').notNull(),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/** Tunnel definitions: who may reach which port of which host, and how Gatehouse logs in there. */
export const tunnelDefinitions = pgTable('tunnel_definitions', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  type: text('type').notNull(),
  name: text('name').notNull(),
  agentId: uuid('agent_id').notNull(),
  port: integer('port').notNull(),
  groupName: text('group_name'),
  sshLogin: text('ssh_login'),
  sshAuth: text('ssh_auth'),
  /** The private key or password, sealed with the secret box; never answered. */
  credentialSealed: text('credential_sealed'),
  publicKey: text('public_key'),
  allowPortForwarding: boolean('allow_port_forwarding').notNull().default(false),
  /** The host key of the target sshd, pinned on first use (base64 of the key blob). */
  hostKey: text('host_key'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** rdp: what a session the agent cannot film does, 'refuse' or 'allow' (marked not filmed; migration 0024). */
  unfilmedRdp: text('unfilmed_rdp').notNull().default('refuse'),
  /** rdp: the browser desktop's clipboard, 'both', 'to-desktop', 'from-desktop' or 'off' (migration 0026). */
  rdpClipboard: text('rdp_clipboard').notNull().default('both'),
});

export const tunnelDefinitionUsers = pgTable(
  'tunnel_definition_users',
  { definitionId: uuid('definition_id').notNull(), userId: uuid('user_id').notNull() },
  (t) => [primaryKey({ columns: [t.definitionId, t.userId] })],
);

export const tunnelDefinitionAgents = pgTable(
  'tunnel_definition_agents',
  { definitionId: uuid('definition_id').notNull(), agentId: uuid('agent_id').notNull() },
  (t) => [primaryKey({ columns: [t.definitionId, t.agentId] })],
);

/** One session through the gateway and its recording (bytes live in files, never in SQL). */
export const recordings = pgTable('recordings', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  type: text('type').notNull(),
  agentId: uuid('agent_id'),
  hostname: text('hostname').notNull(),
  userId: uuid('user_id'),
  userEmail: text('user_email').notNull(),
  definitionId: uuid('definition_id'),
  definitionName: text('definition_name'),
  startedOn: timestamp('started_on', { withTimezone: true }).notNull().defaultNow(),
  endedOn: timestamp('ended_on', { withTimezone: true }),
  lastFlushAt: timestamp('last_flush_at', { withTimezone: true }).notNull().defaultNow(),
  hasVideo: boolean('has_video').notNull().default(false),
  videoBytes: bigint('video_bytes', { mode: 'number' }).notNull().default(0),
  videoFinal: boolean('video_final').notNull().default(false),
  videoAt: timestamp('video_at', { withTimezone: true }),
  width: integer('width'),
  height: integer('height'),
  storagePath: text('storage_path').notNull(),
  bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  chunks: integer('chunks').notNull().default(0),
  chainHead: text('chain_head'),
  manifest: jsonb('manifest'),
  endReason: text('end_reason'),
  terminatedBy: text('terminated_by'),
  /** Targets (host:port) of the session's ssh -L forwards (migration 0011). */
  forwards: text('forwards')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  /** The server instance writing it while live (migration 0017). */
  instanceId: uuid('instance_id'),
  /** What the session's first channel was: shell, exec, sftp, scp or forward (migration 0019). */
  kind: text('kind'),
  /** The command of an exec or scp session (migration 0019). */
  command: text('command'),
  /** SHA-256 of the cast file's header line, committed at start (migration 0018): recovery signs this. */
  headerSha256: text('header_sha256'),
  /** On legal hold: retention never removes it (migration 0021). */
  legalHold: boolean('legal_hold').notNull().default(false),
  /** Email of who placed the hold; null when not held. */
  legalHoldBy: text('legal_hold_by'),
  /** When the hold was placed; null when not held. */
  legalHoldAt: timestamp('legal_hold_at', { withTimezone: true }),
  /** Why the hold was placed; null when not held. */
  legalHoldReason: text('legal_hold_reason'),
  /** Where its files are: 'local' (data folder) or 's3' (object storage; migration 0023). */
  storage: text('storage').notNull().default('local'),
  /** Key prefix of its objects when object storage is configured (segments while live, then final objects). */
  objectKey: text('object_key'),
  /**
   * How the agent's video capture of this rdp session stands (migration 0024): waiting, filming,
   * stopped, failed, unsupported, or not-filmed (the definition's policy applied); null: never asked.
   */
  videoState: text('video_state'),
  /** Why (failed, unsupported, not-filmed), at most 500 characters without control characters. */
  videoNote: text('video_note'),
  /** Pieces of its RDP video committed (migration 0025, recording_video_pieces). */
  videoPieces: integer('video_pieces').notNull().default(0),
  /** The video chain's last link (chain.ts videoChainNext); null before its first piece. */
  videoChainHead: text('video_chain_head'),
  /** The signed video manifest (chain.ts SignedVideoManifest), once final or cut. */
  videoManifest: jsonb('video_manifest'),
});

/** Each committed piece of a recording's RDP video: where, its SHA-256, its chain link (migration 0025). */
export const recordingVideoPieces = pgTable(
  'recording_video_pieces',
  {
    recordingId: uuid('recording_id')
      .notNull()
      .references(() => recordings.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    byteOffset: bigint('byte_offset', { mode: 'number' }).notNull(),
    length: integer('length').notNull(),
    sha256: text('sha256').notNull(),
    chain: text('chain').notNull(),
  },
  (t) => [primaryKey({ columns: [t.recordingId, t.seq] })],
);

/**
 * Signed checkpoints of live recordings (migration 0018, chain.ts SignedCheckpoint): at `at` the
 * chain's entry `seq` had link `chain_head` and ended at byte `bytes` of the cast file.
 */
export const recordingCheckpoints = pgTable(
  'recording_checkpoints',
  {
    recordingId: uuid('recording_id')
      .notNull()
      .references(() => recordings.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    chainHead: text('chain_head').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** Ed25519 (base64) over the checkpoint's canonical JSON. */
    signature: text('signature').notNull(),
  },
  (t) => [primaryKey({ columns: [t.recordingId, t.seq] })],
);

/** Every key this installation signed recordings with, by fingerprint (migration 0018). */
export const recordingSigningKeys = pgTable('recording_signing_keys', {
  /** `SHA256:` and the unpadded base64 of the SHA-256 of the SPKI DER bytes. */
  fingerprint: text('fingerprint').primaryKey(),
  /** SPKI PEM. */
  publicKey: text('public_key').notNull(),
  /** 'environment' | 'file' | 'data-folder': where the private key was kept. */
  source: text('source').notNull(),
  firstUsedAt: timestamp('first_used_at', { withTimezone: true }).notNull().defaultNow(),
  /** When another key took its place; null while it signs. */
  retiredAt: timestamp('retired_at', { withTimezone: true }),
});

/** Running server instances and their heartbeat (migration 0017, cluster/instance-registry.ts). */
export const serverInstances = pgTable('server_instances', {
  id: uuid('id').primaryKey(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  beatAt: timestamp('beat_at', { withTimezone: true }).notNull().defaultNow(),
  /** When it stopped, or was found silent too long; null while it runs. */
  goneAt: timestamp('gone_at', { withTimezone: true }),
  /** Where the other instances reach it for relays (migration 0022). */
  advertiseUrl: text('advertise_url'),
});

/** Relay request nonces already accepted, until their request could no longer be fresh (migration 0022). */
export const relayNonces = pgTable('relay_nonces', {
  nonce: text('nonce').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Single sign-on flows begun and not finished (migration 0008). */
export const ssoFlows = pgTable('sso_flows', {
  idHash: text('id_hash').primaryKey(),
  protocol: text('protocol').notNull(),
  purpose: text('purpose').notNull(),
  requesterId: uuid('requester_id').references(() => users.id, { onDelete: 'cascade' }),
  bindingHash: text('binding_hash').notNull(),
  data: jsonb('data').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Completed single sign-ons waiting for GET /sso/token. */
export const ssoHandoffs = pgTable('sso_handoffs', {
  codeHash: text('code_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  purpose: text('purpose').notNull(),
  requesterTokenHash: text('requester_token_hash'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** SAML assertion ids accepted once, kept until the assertion would have expired anyway. */
export const ssoSeenAssertions = pgTable('sso_seen_assertions', {
  assertionId: text('assertion_id').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** One-time email verification links of self sign-ups, stored as SHA-256 (migration 0013). */
export const emailVerifications = pgTable('email_verifications', {
  tokenHash: text('token_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/** Group memberships a directory or identity provider gave (removed when it stops sending them). */
export const externalGroupMembers = pgTable(
  'external_group_members',
  {
    groupName: text('group_name').notNull(),
    userId: uuid('user_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupName, t.userId] })],
);

/** Roles a directory or identity provider gave (removed when it stops sending them). */
export const externalRoleHolders = pgTable(
  'external_role_holders',
  {
    roleName: text('role_name').notNull(),
    userId: uuid('user_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleName, t.userId] })],
);

/** Mail kept instead of sent while no SMTP server is configured (migration 0012); the body is sealed. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    createdAt: createdAt(),
    sender: text('sender').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    bodySealed: text('body_sealed').notNull(),
  },
  (t) => [index('mail_outbox_created_idx').on(t.createdAt, t.id)],
);

/** One row per statement that changed someone's rights (migration 0015's triggers); polled by realtime/live-rights. */
export const rightsChanges = pgTable('rights_changes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});

/** Sessions started per quarter hour, kept by triggers on recordings (migration 0027), for the dashboard. */
export const recordingStarts = pgTable('recording_starts', {
  bucket: timestamp('bucket', { withTimezone: true }).primaryKey(),
  sessions: integer('sessions').notNull(),
});

/** Ended recordings' text as lines, for search across recordings (migration 0020, recordings/text-index.ts). */
export const recordingText = pgTable(
  'recording_text',
  {
    recordingId: uuid('recording_id')
      .notNull()
      .references(() => recordings.id, { onDelete: 'cascade' }),
    /** Order of the line within its recording. */
    seq: integer('seq').notNull(),
    /** Seconds from the recording's start when the line was complete. */
    t: doublePrecision('t').notNull(),
    /** 'output' | 'input' | 'command' | 'file'. */
    kind: text('kind').notNull(),
    text: text('text').notNull(),
  },
  (t) => [primaryKey({ columns: [t.recordingId, t.seq] })],
);

/** Which recordings are indexed, and the instance that claimed each (migration 0020). */
export const recordingTextState = pgTable('recording_text_state', {
  recordingId: uuid('recording_id')
    .primaryKey()
    .references(() => recordings.id, { onDelete: 'cascade' }),
  claimedBy: text('claimed_by').notNull(),
  claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  /** Null until the text is in recording_text. */
  indexedAt: timestamp('indexed_at', { withTimezone: true }),
  lines: integer('lines').notNull().default(0),
  /** A cap of text per recording (text-extract.ts TEXT_CAPS) cut it. */
  truncated: boolean('truncated').notNull().default(false),
  /** Why the last attempt failed (the file unreadable), when it did. */
  error: text('error'),
});

/** File operations observed in sftp and scp channels (migration 0019); the recording's markers are the record. */
export const fileTransfers = pgTable(
  'file_transfers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    recordingId: uuid('recording_id')
      .notNull()
      .references(() => recordings.id, { onDelete: 'cascade' }),
    t: doublePrecision('t').notNull(),
    protocol: text('protocol').notNull(),
    op: text('op').notNull(),
    path: text('path').notNull(),
    target: text('target'),
    direction: text('direction'),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    sha256: text('sha256'),
    outcome: text('outcome').notNull(),
    note: text('note'),
    createdOn: timestamp('created_on', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('file_transfers_recording_idx').on(t.recordingId, t.t, t.id)],
);

/** A user's authenticator app (migration 0029): the seed sealed, confirmed once a code was proven. */
export const userTotp = pgTable('user_totp', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretSealed: text('secret_sealed').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  /** The last time step accepted: a code of it or an earlier step is never accepted again. */
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** Recovery codes, stored as SHA-256, each used once (migration 0029). */
export const userRecoveryCodes = pgTable(
  'user_recovery_codes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);

/** WebAuthn credentials: passkeys and security keys (migration 0029). */
export const userPasskeys = pgTable('user_passkeys', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  credentialId: text('credential_id').notNull().unique(),
  publicKey: text('public_key').notNull(),
  counter: bigint('counter', { mode: 'number' }).notNull().default(0),
  transports: text('transports').notNull().default('[]'),
  name: text('name').notNull(),
  createdAt: createdAt(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
});

/** One WebAuthn ceremony's challenge, used up once, shared by instances (migration 0029). */
export const webauthnChallenges = pgTable('webauthn_challenges', {
  id: text('id').primaryKey(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  purpose: text('purpose').notNull(),
  challenge: text('challenge').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
