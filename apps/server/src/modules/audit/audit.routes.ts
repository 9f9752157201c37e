import { auditExport } from '@gatehouse/contracts';
import type { FastifyInstance } from 'fastify';
import type { Handlers } from '../../http/bind-routes.js';
import { contentDisposition } from '../../http/send-file.js';
import type { Services } from '../../services.js';

/**
 * Audits every export (GET calls are not audited by default): the trail leaving the server is
 * worth a line in it, with the filters used. Call before binding routes.
 */
export function installAuditExportAudit(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.config?.routeId === auditExport.id && route.config) route.config.auditable = true;
  });
}

type AuditHandlers = Pick<
  Handlers,
  'auditList' | 'auditActions' | 'auditExport' | 'getAuditStreaming' | 'saveAuditStreaming'
>;

/** Handlers of the audit screen's calls: list, actions, export and the SIEM streaming settings. */
export function auditHandlers(s: Services): AuditHandlers {
  return {
    auditList: ({ query }) => s.auditTrail.page(query),
    auditActions: async () => ({ actions: await s.auditTrail.actions() }),
    auditExport: async ({ query, request, reply }) => {
      const { format, ...filters } = query;
      const stream = s.auditTrail.export(filters, format);
      request.auditNote.target = format;
      request.auditNote.detail = { filters };
      const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '');
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', contentDisposition(`gatehouse-audit-${stamp}.${format}`))
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(stream);
    },
    getAuditStreaming: () => s.streaming.view(),
    saveAuditStreaming: async ({ body, request }) => {
      const answer = await s.streaming.save(body);
      // What changed, never the secret: whether one was given.
      request.auditNote.detail = {
        syslog: answer.syslog.enabled ? `${answer.syslog.host}:${answer.syslog.port}` : 'off',
        webhook: answer.webhook.enabled ? 'on' : 'off',
        webhook_secret_changed: body.webhook.secret !== undefined,
      };
      return answer;
    },
  };
}
