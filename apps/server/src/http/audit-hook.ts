import type { FastifyInstance } from 'fastify';
import type { AuditRepository } from '../modules/audit/audit.repository.js';
import { logFailure } from '../lib/detach.js';

function outcomeOf(status: number): 'success' | 'failure' | 'denied' {
  if (status < 400) return 'success';
  return status === 401 || status === 403 ? 'denied' : 'failure';
}

/**
 * Writes an audit entry for every state-changing call before its answer leaves, so a client that
 * got an answer can always find the entry. Failing to write it is logged, not hidden.
 */
export function installAuditHook(app: FastifyInstance, audit: AuditRepository): void {
  app.addHook('onRequest', async (request) => {
    request.auditNote = {};
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const config = request.routeOptions.config;
    if (!config.auditable || !config.routeId) return payload;
    const note = request.auditNote;
    const target = note.target ?? (Object.values((request.params ?? {}) as Record<string, string>)[0] || null);
    try {
      await audit.append({
        actorId: note.actorId ?? request.principal?.userId ?? null,
        actor: note.actor ?? request.principal?.email ?? null,
        action: config.routeId,
        target,
        outcome: outcomeOf(reply.statusCode),
        status: reply.statusCode,
        source: request.ip,
        detail: note.detail ?? null,
      });
    } catch (error) {
      logFailure(request.log, error, `could not write the audit entry of ${config.routeId}`);
    }
    return payload;
  });
}
