import { BUILD, type Permission, buildOpenApi, routeList } from '@gatehouse/contracts';
import type { Handlers } from '../../http/bind-routes.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { StatusService } from '../status/status.service.js';

type SystemHandlers = Pick<
  Handlers,
  'health' | 'liveness' | 'readiness' | 'metadata' | 'navigationCounts' | 'openapi' | 'listPods' | 'podLogs'
>;

/** Handlers of the system calls: health, build identity, navigation counts, OpenAPI (the audit trail: modules/audit). */
export function systemHandlers(s: Services, buildTag: string): SystemHandlers {
  const openapiDocument = buildOpenApi(routeList, buildTag);
  const { database, repositories: r } = s;
  /** Sessions the caller may see, and how many of them are live. */
  const sessionCounts = async (principal: Principal) => {
    const agentIds = await s.policy.reachableAgents(principal);
    const all = { start: new Date(0), end: new Date('9999-12-31T23:59:59Z'), agentIds };
    // Of every host: the kept counts (migration 0027), since a count of every row grows with them.
    const [total, live] = await Promise.all([
      agentIds ? r.recordings.count(all) : r.recordings.total(),
      r.recordings.count({ ...all, live: true }),
    ]);
    return { totalSessions: total, liveSessions: live };
  };
  return {
    // The database as the readiness probe last saw it (at most a second ago): probes never hammer it.
    health: async () => {
      const { database: answered } = await s.readiness.databaseProbe();
      return { status: answered === 'ok' ? 'ok' : 'degraded', database: database.kind };
    },
    liveness: async () => ({ status: 'ok' }),
    readiness: async ({ reply }) => {
      const { ready, checks, failed } = await s.readiness.report();
      if (ready) return { status: 'ready', checks };
      const why = checks.draining ? 'this instance is shutting down' : `failed: ${failed.join(', ')}`;
      // Not an error of the caller's: the body says which checks failed, and names no address or secret.
      return reply.status(503).send({
        statusCode: 503,
        error: 'Service Unavailable',
        message: `Not ready: ${why}.`,
        status: 'not-ready',
        checks,
        failed,
      }) as never;
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
        ...(can('list-recording') ? await sessionCounts(principal) : {}),
        ...(can('manage-kubernetes')
          ? await s.status.pods().then((pods) => {
              const { summary, unhealthy } = StatusService.summary(pods);
              return { systemStatusHealthSummary: summary, totalUnhealthyPods: unhealthy };
            })
          : {}),
      };
    },
    openapi: async () => openapiDocument,
    listPods: async () => ({ pods: await s.status.pods() }),
    podLogs: ({ params, query }) => s.status.logs(params.name, query.limit),
  };
}
