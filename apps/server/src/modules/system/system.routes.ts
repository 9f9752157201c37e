import { BUILD, PERMISSIONS, buildOpenApi, routeList } from '@gatehouse/contracts';
import type { Database } from '../../db/client.js';
import type { Handlers } from '../../http/bind-routes.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { RolesRepository } from '../roles/roles.repository.js';
import type { UsersRepository } from '../users/users.repository.js';

type SystemHandlers = Pick<
  Handlers,
  'health' | 'metadata' | 'navigationCounts' | 'auditList' | 'permissionCatalogue' | 'openapi'
>;

interface Deps {
  database: Database;
  users: UsersRepository;
  roles: RolesRepository;
  audit: AuditRepository;
  buildTag: string;
}

/** Handlers of the system calls: health, build identity, navigation counts, audit, OpenAPI. */
export function systemHandlers({ database, users, roles, audit, buildTag }: Deps): SystemHandlers {
  const openapiDocument = buildOpenApi(routeList, buildTag);
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
      const can = (p: (typeof PERMISSIONS)[number]) => principal.permissions.has(p);
      // Users are always listed in the navigation (spec §2.2); roles need list-user-role.
      return {
        totalUsers: await users.count(),
        ...(can('list-user-role') ? { totalRoles: await roles.count() } : {}),
      };
    },
    auditList: async ({ query }) => {
      const rows = await audit.list(query);
      return {
        entries: rows.map((r) => ({
          id: r.id,
          at: r.at.toISOString(),
          actor: r.actor,
          action: r.action,
          target: r.target,
          outcome: r.outcome as 'success' | 'failure' | 'denied',
          status: r.status,
          source: r.source,
        })),
      };
    },
    permissionCatalogue: async () => ({ permissions: [...PERMISSIONS] }),
    openapi: async () => openapiDocument,
  };
}
