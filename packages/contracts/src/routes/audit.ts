import { z } from 'zod';
import { defineRoute } from '../route.js';
import { Timestamp } from './common.js';

/** How an audited call ended. */
export const AUDIT_OUTCOMES = ['success', 'failure', 'denied'] as const;

/** One entry of the audit trail. */
export const AuditEntry = z
  .object({
    id: z.number().int(),
    at: z.string().describe('ISO 8601, UTC'),
    actor: z.string().nullable().describe('Email of who acted, or the email tried at sign-in'),
    action: z.string().describe('Route id, such as auth.login'),
    target: z.string().nullable(),
    outcome: z.enum(AUDIT_OUTCOMES),
    status: z.number().int().nullable(),
    source: z.string().nullable().describe('Source address'),
    detail: z.record(z.string(), z.unknown()).nullable().describe('What else the entry records (never a secret)'),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;

const filterText = (what: string) =>
  z
    .string()
    .trim()
    .max(200, `${what} is at most 200 characters`)
    .optional()
    .transform((text) => (text === '' ? undefined : text));

const instant = (what: string) =>
  z.iso.datetime({ offset: true, error: `${what} must be an ISO 8601 date and time, such as 2026-01-31T12:00:00Z` });

/** The filters the list and the export share: who, action, outcome, target, time range and free text. */
export const AuditFilters = z.object({
  actor: filterText('actor').describe('Who acted: part of the email, any case'),
  action: z.string().trim().max(100).optional().describe('Exactly this action, such as auth.login'),
  outcome: z.enum(AUDIT_OUTCOMES, { error: 'outcome is one of success, failure, denied' }).optional(),
  target: filterText('target').describe('Part of the target, any case'),
  from: instant('from').optional().describe('Entries at or after this time'),
  to: instant('to').optional().describe('Entries before this time'),
  q: filterText('q').describe('Text in the actor, action, target, source or detail, any case'),
  order: z.enum(['desc', 'asc'], { error: 'order is desc or asc' }).default('desc').describe('By time'),
});
export type AuditFilters = z.infer<typeof AuditFilters>;

export const auditList = defineRoute({
  id: 'audit.list',
  method: 'GET',
  path: '/api/audit',
  tag: 'system',
  summary:
    'Audit entries by time (newest first unless order=asc), filtered, with keyset paging: pass next_cursor back ' +
    'as cursor for the next page. `before` (an id) still pages the newest-first list by id.',
  access: { kind: 'permissions', anyOf: ['list-audit-log'] },
  query: AuditFilters.extend({
    limit: z.coerce.number().int().min(1).max(500).default(100),
    cursor: z.string().max(200, 'cursor is at most 200 characters').optional(),
    before: z.coerce.number().int().positive().optional(),
  }),
  response: z.object({ entries: z.array(AuditEntry), next_cursor: z.string().nullable() }),
  errors: { 400: 'A filter is not valid, or the cursor is not one this list gave out for this order' },
});

export const auditActions = defineRoute({
  id: 'audit.actions',
  method: 'GET',
  path: '/api/audit/actions',
  tag: 'system',
  summary: 'Every action the audit trail holds, sorted: the choices of the action filter.',
  access: { kind: 'permissions', anyOf: ['list-audit-log'] },
  response: z.object({ actions: z.array(z.string()) }),
});

/** Formats of the export. */
export const AUDIT_EXPORT_FORMATS = ['csv', 'jsonl'] as const;

export const auditExport = defineRoute({
  id: 'audit.export',
  method: 'GET',
  path: '/api/audit/export',
  tag: 'system',
  summary:
    'The filtered entries as a download, streamed: CSV (text/csv; cells that a spreadsheet would run as a formula, ' +
    "those starting with = + - @ tab or CR, get a leading ') or JSON Lines (application/x-ndjson). Audited.",
  access: { kind: 'permissions', anyOf: ['list-audit-log'] },
  query: AuditFilters.extend({
    format: z.enum(AUDIT_EXPORT_FORMATS, { error: 'format is csv or jsonl' }).default('csv'),
  }),
  raw: 'text/csv',
  response: z.unknown(),
  errors: { 400: 'A filter is not valid' },
});

/** Syslog facilities a sink may use (RFC 5424 numbers). */
export const SYSLOG_FACILITIES = {
  auth: 4,
  authpriv: 10,
  local0: 16,
  local1: 17,
  local2: 18,
  local3: 19,
  local4: 20,
  local5: 21,
  local6: 22,
  local7: 23,
} as const;

const HOST_NAME = /^[A-Za-z0-9.:[\]-]+$/;

/** Where audit entries go by syslog (RFC 5424 over TCP, octet-counted, optionally TLS). */
export const SyslogSink = z
  .object({
    enabled: z.boolean(),
    host: z.string().trim().max(253).regex(HOST_NAME, 'host is a host name or an IP address').or(z.literal('')),
    port: z.number().int().min(1).max(65535),
    tls: z.boolean().describe('TLS over TCP (RFC 5425); the certificate is checked against ca or the system CAs'),
    ca: z
      .string()
      .max(20_000)
      .describe('PEM of the CA that signed the collector’s certificate; empty: the system CAs')
      .default(''),
    facility: z.enum(Object.keys(SYSLOG_FACILITIES) as [keyof typeof SYSLOG_FACILITIES]).default('authpriv'),
  })
  .refine((sink) => !sink.enabled || sink.host !== '', { error: 'syslog host is required when syslog is enabled' });

/** Where audit entries go by signed HTTP POST. */
export const WebhookSink = z
  .object({
    enabled: z.boolean(),
    url: z
      .string()
      .trim()
      .max(2000)
      .refine((url) => url === '' || /^https?:\/\/[^/@\s]+(\/\S*)?$/i.test(url), {
        error: 'url is an http or https address without a user name or password in it',
      }),
  })
  .refine((sink) => !sink.enabled || sink.url !== '', { error: 'webhook url is required when the webhook is enabled' });

/** One sink's delivery state, shared by every instance. */
export const SinkStatus = z
  .object({
    delivered_through: z.number().int().describe('The id of the last entry delivered'),
    pending: z.number().int().describe('Entries waiting to be delivered'),
    last_delivery_at: Timestamp.nullable(),
    last_error: z.string().nullable(),
    last_error_at: Timestamp.nullable(),
    next_attempt_at: Timestamp.nullable().describe('When a failed delivery is tried again'),
  })
  .meta({ id: 'AuditSinkStatus' });

export const AuditStreaming = z
  .object({
    syslog: SyslogSink,
    webhook: WebhookSink.and(z.object({ secret_set: z.boolean().describe('The secret is never shown back') })),
    status: z.object({ syslog: SinkStatus, webhook: SinkStatus }),
  })
  .meta({ id: 'AuditStreaming' });
export type AuditStreaming = z.infer<typeof AuditStreaming>;

export const getAuditStreaming = defineRoute({
  id: 'audit.streaming.get',
  method: 'GET',
  path: '/api/audit/streaming',
  tag: 'system',
  summary: 'Where audit entries are streamed (syslog, signed webhook) and how delivery goes. Administrators only.',
  access: { kind: 'admin-role' },
  response: AuditStreaming,
});

export const saveAuditStreaming = defineRoute({
  id: 'audit.streaming.saved',
  method: 'PUT',
  path: '/api/audit/streaming',
  tag: 'system',
  summary:
    'Saves the streaming settings. webhook.secret: a new secret (16 to 200 characters); leave it out to keep the ' +
    'current one. A sink newly enabled starts with the entries written from then on. Administrators only.',
  access: { kind: 'admin-role' },
  body: z.object({
    syslog: SyslogSink,
    webhook: WebhookSink.and(
      z.object({
        secret: z
          .string()
          .min(16, 'the webhook secret is at least 16 characters')
          .max(200, 'the webhook secret is at most 200 characters')
          .optional(),
      }),
    ),
  }),
  response: AuditStreaming,
  errors: { 400: 'A setting is not valid, or the webhook is enabled without a secret' },
});
