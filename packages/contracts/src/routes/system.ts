import { z } from 'zod';
import { PERMISSIONS } from '../permissions.js';
import { defineRoute } from '../route.js';

export const health = defineRoute({
  id: 'system.health',
  method: 'GET',
  path: '/api/health',
  tag: 'system',
  summary: 'Liveness and database reachability, for load balancers and the status screen.',
  access: { kind: 'public' },
  response: z.object({ status: z.enum(['ok', 'degraded']), database: z.enum(['pglite', 'postgres']) }),
});

export const liveness = defineRoute({
  id: 'system.live',
  method: 'GET',
  path: '/api/health/live',
  tag: 'system',
  summary:
    'Liveness: 200 whenever the process serves HTTP, draining included. Asks nothing of the database; a ' +
    'liveness probe that fails should restart the process, and nothing but a hung process should make it fail.',
  access: { kind: 'public' },
  response: z.object({ status: z.literal('ok') }),
});

/** What a readiness probe checked (docs/deploy/server.md). */
export const ReadinessChecks = z
  .object({
    database: z.enum(['ok', 'failed']).describe('The database answered a query (probed at most once a second)'),
    migrations: z
      .enum(['ok', 'pending', 'unknown'])
      .describe('Every migration this build knows is applied (unknown while the database does not answer)'),
    ssh: z.enum(['ok', 'failed']).describe('The SSH gateway takes connections'),
    redis: z.enum(['ok', 'failed', 'not-configured']).describe('Redis connected (REDIS_URL set), or not configured'),
    draining: z.boolean().describe('The instance is shutting down: it takes no new sessions'),
  })
  .meta({ id: 'ReadinessChecks' });

export const readiness = defineRoute({
  id: 'system.ready',
  method: 'GET',
  path: '/api/health/ready',
  tag: 'system',
  summary:
    'Readiness, for load balancers: 200 when this instance takes new sessions; 503 (with `failed`, the checks ' +
    'that failed) when the database does not answer, a migration is missing, the SSH gateway does not listen, ' +
    'Redis (when configured) is not connected, or the instance is draining after SIGTERM.',
  access: { kind: 'public' },
  response: z.object({ status: z.literal('ready'), checks: ReadinessChecks }),
  errors: {
    503: 'Not ready: the body adds status "not-ready", `checks` and `failed` (the names of the checks that failed)',
  },
});

/** Build identity (spec §3 Metadata). */
export const Metadata = z
  .object({ version: z.string(), buildNumber: z.string(), buildTag: z.string() })
  .meta({ id: 'Metadata' });

export const metadata = defineRoute({
  id: 'system.metadata',
  method: 'GET',
  path: '/api/metadata',
  tag: 'system',
  summary: 'Server version, build number and build tag, for the footer.',
  access: { kind: 'signed-in' },
  response: Metadata,
});

/**
 * Navigation counts (spec §2.3). A count is present only when the caller may see what it counts
 * and the server holds that kind of object; later issues fill in the rest.
 */
export const NavigationCounts = z
  .object({
    totalSessions: z.number().int().optional(),
    liveSessions: z.number().int().optional(),
    totalHosts: z.number().int().optional(),
    connectedHosts: z.number().int().optional(),
    totalGroups: z.number().int().optional(),
    totalRoles: z.number().int().optional(),
    totalTunnels: z.number().int().optional(),
    totalUsers: z.number().int().optional(),
    totalRegistrationKeys: z.number().int().optional(),
    systemStatusHealthSummary: z.enum(['Healthy', 'Problem', 'Problems']).optional(),
    totalUnhealthyPods: z.number().int().optional(),
  })
  .meta({ id: 'NavigationCounts' });

export const navigationCounts = defineRoute({
  id: 'system.navigation-counts',
  method: 'GET',
  path: '/api/navigation/counts',
  tag: 'system',
  summary: 'Live counts beside the navigation entries, limited to what the caller may list.',
  access: { kind: 'signed-in' },
  response: NavigationCounts,
});

export const permissionCatalogue = defineRoute({
  id: 'permission.list',
  method: 'GET',
  path: '/api/permission',
  tag: 'roles',
  summary: 'Every permission a role can hold.',
  access: { kind: 'permissions', anyOf: ['list-user-role'] },
  response: z.object({ permissions: z.array(z.enum(PERMISSIONS)) }),
});

export const openapi = defineRoute({
  id: 'system.openapi',
  method: 'GET',
  path: '/api/openapi.json',
  tag: 'system',
  summary: 'This document.',
  access: { kind: 'public' },
  response: z.record(z.string(), z.unknown()),
});

/** A component of the system (spec §3 Pod): Running, or why not. */
export const Pod = z
  .object({
    name: z.string(),
    status: z.enum(['Running', 'Failed', 'Unknown']),
    detail: z.string().describe('What the health check found'),
    checked_at: z.string(),
  })
  .meta({ id: 'Pod' });

export const listPods = defineRoute({
  id: 'pods.list',
  method: 'GET',
  path: '/api/pods',
  tag: 'system',
  summary:
    'The components of the running system with a live health check each: api, gateway, database, recording-storage, ' +
    'agent-hub (and redis when configured). A component that does not answer within two seconds is not Running.',
  access: { kind: 'permissions', anyOf: ['manage-kubernetes'] },
  response: z.object({ pods: z.array(Pod) }),
});

export const podLogs = defineRoute({
  id: 'pods.logs',
  method: 'GET',
  path: '/api/pods/{name}/logs',
  tag: 'system',
  summary: 'The recent log lines of one component on the instance that answers (JSON lines, oldest first).',
  access: { kind: 'admin-role' },
  params: z.object({ name: z.string().max(64) }),
  query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(200) }),
  response: z.object({ pods: z.array(Pod.extend({ logs: z.array(z.string()) })) }),
  errors: { 404: 'No component of that name' },
});
