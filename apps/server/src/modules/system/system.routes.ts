import { BUILD, type Permission, buildOpenApi, routeList } from '@gatehouse/contracts';
import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';

type SystemHandlers = Pick<Handlers, 'health' | 'metadata' | 'navigationCounts' | 'auditList' | 'openapi'>;

/** Handlers of the system calls: health, build identity, navigation counts, audit, OpenAPI. */
export function systemHandlers(s: Services, buildTag: string): SystemHandlers {
  const openapiDocument = buildOpenApi(routeList, buildTag);
  const { database, repositories: r } = s;
  return {
    health: async () => {
      try {
        await database.query('SELECT 1');
        return { status: 'ok', database: database.kind };
      } catch {
        return { status: 'degraded', database: database.kind };
      }
    },
    metadata: async () => ({ version: BUILD.version, buildNumber: BUILD.buildNumber, buildTag }),
    navigationCounts: async ({ principal }) => {
      const can = (p: Permission) => principal.permissions.has(p);
      // A count appears only when the caller may list what it counts (Users: everyone sees at
      // least themselves, so the count is the whole list only with list-user).
      return {
        totalUsers: can('list-user') ? await r.users.count() : 1,
        ...(can('list-user-role') ? { totalRoles: await r.roles.count() } : {}),
        ...(can('list-group') ? { totalGroups: await r.groups.count() } : {}),
        ...(can('list-api-key') ? { totalRegistrationKeys: await r.apiKeys.count() } : {}),
        ...(can('list-host')
          ? await r.agents.counts().then((c) => ({ totalHosts: c.total, connectedHosts: c.connected }))
          : {}),
        ...(can('list-all-tunnel-definitions') ? { totalTunnels: await r.tunnels.count() } : {}),
      };
    },
    auditList: async ({ query }) => {
      const rows = await r.audit.list(query);
      return {
        entries: rows.map((row) => ({
          id: row.id,
          at: row.at.toISOString(),
          actor: row.actor,
          action: row.action,
          target: row.target,
          outcome: row.outcome as 'success' | 'failure' | 'denied',
          status: row.status,
          source: row.source,
        })),
      };
    },
    openapi: async () => openapiDocument,
  };
}
