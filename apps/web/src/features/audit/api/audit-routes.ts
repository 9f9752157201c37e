import type { RouteName } from '@gatehouse/contracts';
import type { RouteRef } from '../../../lib/api-routes';

/** The audit screen's calls, checked against the contract like lib/api-routes. */
export const AUDIT_API = {
  auditList: { name: 'auditList', method: 'GET', path: '/api/audit' },
  auditActions: { name: 'auditActions', method: 'GET', path: '/api/audit/actions' },
  auditExport: { name: 'auditExport', method: 'GET', path: '/api/audit/export' },
  getAuditStreaming: { name: 'getAuditStreaming', method: 'GET', path: '/api/audit/streaming' },
  saveAuditStreaming: { name: 'saveAuditStreaming', method: 'PUT', path: '/api/audit/streaming' },
} as const satisfies { [K in RouteName]?: RouteRef<K> };

/** Query keys of the audit screen. */
export const AUDIT_KEYS = {
  all: ['audit'] as const,
  list: ['audit', 'list'] as const,
  actions: ['audit', 'actions'] as const,
  streaming: ['audit', 'streaming'] as const,
};
