import { z } from 'zod';
import { MessageBody, defineRoute } from '../route.js';
import { DisplayName, Timestamp } from './common.js';

/** Expiry and use count of registration keys (ADR 0006): one agent within a day unless chosen otherwise. */
export const REGISTRATION_KEY_LIMITS = { defaultHours: 24, maxHours: 8760, defaultUses: 1, maxUses: 10_000 } as const;

/** A registration key without its secret. */
export const ApiKey = z
  .object({
    uuid: z.string(),
    description: z.string(),
    created: Timestamp,
    created_by: z.string().nullable(),
    last_used_at: Timestamp.nullable(),
    expires_at: Timestamp.describe('After this instant the key enrols no agent'),
    uses: z.number().int().describe('How many agents the key may enrol in all, chosen at creation'),
    uses_left: z.number().int().describe('How many more agents it may enrol; 0 when used up'),
  })
  .meta({ id: 'ApiKey' });

export const listApiKeys = defineRoute({
  id: 'apikey.list',
  method: 'GET',
  path: '/api/apikey',
  tag: 'registration-keys',
  summary: 'Registration keys, newest first. Secrets are never shown again.',
  access: { kind: 'admin-role' },
  response: z.object({ keys: z.array(ApiKey) }),
});

export const createApiKey = defineRoute({
  id: 'apikey.create',
  method: 'POST',
  path: '/api/apikey',
  tag: 'registration-keys',
  summary:
    'Generate a registration key that enrols at most `uses` agents (default 1) within `expires_in_hours` (default 24). The answer carries the secret as `key`, this once; it is stored hashed.',
  access: { kind: 'admin-role' },
  body: z.object({
    description: DisplayName.min(1, 'Description is required'),
    expires_in_hours: z
      .number({ error: 'expires_in_hours must be a number of hours' })
      .int('expires_in_hours must be a whole number of hours')
      .min(1, `expires_in_hours must be from 1 to ${REGISTRATION_KEY_LIMITS.maxHours} (a year)`)
      .max(
        REGISTRATION_KEY_LIMITS.maxHours,
        `expires_in_hours must be from 1 to ${REGISTRATION_KEY_LIMITS.maxHours} (a year)`,
      )
      .default(REGISTRATION_KEY_LIMITS.defaultHours),
    uses: z
      .number({ error: 'uses must be a number of agents' })
      .int('uses must be a whole number of agents')
      .min(1, `uses must be from 1 to ${REGISTRATION_KEY_LIMITS.maxUses}`)
      .max(REGISTRATION_KEY_LIMITS.maxUses, `uses must be from 1 to ${REGISTRATION_KEY_LIMITS.maxUses}`)
      .default(REGISTRATION_KEY_LIMITS.defaultUses),
    // ADR 0006: a key carries no permissions. The field is refused rather than ignored, so a
    // client written against the old contract learns that nothing was granted.
    permissions: z
      .union([z.string(), z.array(z.string())])
      .refine(
        (value) => value.length === 0,
        'Registration keys carry no permissions: what an agent may do is set per host (its whitelist) and per tunnel definition. Leave permissions out.',
      )
      .optional(),
  }),
  status: 201,
  response: ApiKey.extend({ key: z.string(), message: z.string() }),
});

export const deleteApiKey = defineRoute({
  id: 'apikey.delete',
  method: 'DELETE',
  path: '/api/apikey/{uuid}',
  tag: 'registration-keys',
  summary: 'Delete a registration key; agents can no longer register with it.',
  access: { kind: 'admin-role' },
  params: z.object({ uuid: z.uuid({ error: 'Not a key id' }) }),
  response: MessageBody,
});
