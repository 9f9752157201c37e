import { z } from 'zod';
import { MessageBody, defineRoute } from '../route.js';
import { DisplayName, PermissionList, Timestamp } from './common.js';

/** A registration key without its secret. */
export const ApiKey = z
  .object({
    uuid: z.string(),
    description: z.string(),
    permissions: z.array(z.string()),
    created: Timestamp,
    created_by: z.string().nullable(),
    last_used_at: Timestamp.nullable(),
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
  summary: 'Generate a registration key. The answer carries the secret as `key`, this once; it is stored hashed.',
  access: { kind: 'admin-role' },
  body: z.object({
    description: DisplayName.min(1, 'Description is required'),
    permissions: PermissionList.optional(),
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
