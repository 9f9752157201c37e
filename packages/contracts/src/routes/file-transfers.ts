import { z } from 'zod';
import { defineRoute } from '../route.js';
import { Timestamp } from './common.js';

/** What a session's first channel was: its kind in the session list. */
export const SESSION_KINDS = ['shell', 'exec', 'sftp', 'scp', 'forward'] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

/** File operations the gateway observes in sftp and scp channels; 'unparsable': it stopped observing. */
export const FILE_TRANSFER_OPS = [
  'read',
  'write',
  'rename',
  'remove',
  'mkdir',
  'rmdir',
  'upload',
  'download',
  'open',
  'setstat',
  'symlink',
  'unparsable',
] as const;

/**
 * A file-transfer event as the recording carries it: the data of an asciicast marker event
 * `[t, "m", JSON]` (inside the signed chain), and a row of GET /api/recording/{id}/transfers.
 */
export const FileTransferMarker = z.object({
  type: z.literal('file-transfer'),
  protocol: z.enum(['sftp', 'scp']),
  op: z.enum(FILE_TRANSFER_OPS),
  path: z.string().describe('As the client named it (absolute or relative to the login’s home)'),
  target: z.string().optional().describe('The new path of a rename, the target of a symlink'),
  direction: z.enum(['upload', 'download']).nullable(),
  bytes: z.number().int().min(0).describe('Bytes of the file that passed through the gateway'),
  sha256: z
    .string()
    .nullable()
    .describe('SHA-256 (hex) of the bytes that passed, in offset order; null when they were no one run from 0'),
  outcome: z.string().describe("'ok', or the error the host or the peer answered"),
  note: z.string().optional().describe('Why sha256 is null, or what else the observer could not tell'),
});
export type FileTransferMarker = z.infer<typeof FileTransferMarker>;

/** The marker opening each channel of a session: its kind, and an exec's command. */
export const ChannelMarker = z.object({
  type: z.literal('channel'),
  kind: z.enum(SESSION_KINDS),
  command: z.string().optional(),
});
export type ChannelMarker = z.infer<typeof ChannelMarker>;

/** One file operation of a session. */
export const FileTransfer = FileTransferMarker.omit({ type: true })
  .extend({
    id: z.string(),
    t: z.number().describe('Seconds from the start of the recording'),
    target: z.string().nullable(),
    note: z.string().nullable(),
    created_on: Timestamp,
  })
  .meta({ id: 'FileTransfer' });

export const listRecordingTransfers = defineRoute({
  id: 'recording.transfers',
  method: 'GET',
  path: '/api/recording/{id}/transfers',
  tag: 'sessions',
  summary:
    'The file operations (sftp and scp) of a session, in time order: path, direction, bytes, SHA-256 and outcome. ' +
    'The same events are in the recording itself as marker events, inside its hash chain.',
  access: { kind: 'permissions', anyOf: ['list-recording'] },
  params: z.object({ id: z.uuid({ error: 'Not a session id' }) }),
  response: z.object({
    transfers: z.array(FileTransfer),
    truncated: z.boolean().describe('More than 10,000 operations: the first 10,000 are listed'),
  }),
  errors: { 404: 'No session with that id that the caller may see' },
});
