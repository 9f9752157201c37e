import { z } from 'zod';
import { MessageBody, defineRoute } from '../route.js';

/** One message of the outbox, without its text. */
export const OutboxEntry = z
  .object({
    id: z.uuid(),
    created_at: z.string().describe('When it was written (ISO 8601)'),
    from: z.string(),
    to: z.string(),
    subject: z.string(),
  })
  .meta({ id: 'OutboxEntry' });

export const listOutbox = defineRoute({
  id: 'mail.outbox.list',
  method: 'GET',
  path: '/api/mail/outbox',
  tag: 'settings',
  summary:
    'Mail kept instead of sent because no SMTP server is configured, newest first, without its text. Only holders ' +
    'of the admin role read it: a reset link in it opens the account it was sent to.',
  access: { kind: 'admin-role' },
  query: z.object({
    offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  }),
  response: z.object({
    smtp_configured: z.boolean().describe('An SMTP host is set: new mail is sent, not kept here'),
    total: z.number().int(),
    messages: z.array(OutboxEntry),
  }),
});

export const getOutboxMessage = defineRoute({
  id: 'mail.outbox.get',
  method: 'GET',
  path: '/api/mail/outbox/{id}',
  tag: 'settings',
  summary: 'One message of the outbox with its text.',
  access: { kind: 'admin-role' },
  params: z.object({ id: z.uuid({ error: 'Not a message id' }) }),
  response: OutboxEntry.extend({ text: z.string() }),
  errors: { 404: 'No such message (deleted, or never written)' },
});

export const deleteOutboxMessage = defineRoute({
  id: 'mail.outbox.delete',
  method: 'DELETE',
  path: '/api/mail/outbox/{id}',
  tag: 'settings',
  summary: 'Delete one message of the outbox.',
  access: { kind: 'admin-role' },
  params: z.object({ id: z.uuid({ error: 'Not a message id' }) }),
  response: MessageBody,
  errors: { 404: 'No such message (deleted, or never written)' },
});
