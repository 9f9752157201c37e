import { z } from 'zod';
import { defineRoute } from '../route.js';
import { Timestamp } from './common.js';

/** Where the private key that signs recordings is kept. */
export const SigningKeySource = z
  .enum(['environment', 'file', 'data-folder'])
  .describe(
    'environment: GATEHOUSE_RECORDING_KEY; file: GATEHOUSE_RECORDING_KEY_FILE; data-folder: sealed in the database ' +
      'with the data folder’s secret.key',
  );

/** The key that signs recordings, as an auditor needs it to check one on another machine. */
export const RecordingSigningKey = z
  .object({
    fingerprint: z.string().describe('SHA256: and the unpadded base64 of the SHA-256 of the public key’s SPKI DER'),
    public_key: z.string().describe('The public key, SPKI PEM'),
    source: SigningKeySource,
    with_data: z
      .boolean()
      .describe('The private key is kept with the data folder: whoever can write the folder can re-sign recordings'),
    earlier_keys: z
      .array(
        z.object({
          fingerprint: z.string(),
          source: SigningKeySource,
          first_used_at: Timestamp,
          retired_at: Timestamp.describe('Since then recordings are signed with another key'),
        }),
      )
      .describe('Keys this installation signed recordings with before, newest first: their recordings still verify'),
  })
  .meta({ id: 'RecordingSigningKey' });

export const getSigningKey = defineRoute({
  id: 'recording.signing-key',
  method: 'GET',
  path: '/api/signing-key',
  tag: 'sessions',
  summary:
    'The key that signs recordings: its fingerprint (give it to `npm run verify-recording -- --key` or to an ' +
    'auditor), where it is kept, and the keys used before. For holders of list-recording or manage-settings.',
  access: { kind: 'permissions', anyOf: ['list-recording', 'manage-settings'] },
  response: RecordingSigningKey,
});
