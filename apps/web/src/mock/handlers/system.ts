import { BUILD } from '@gatehouse/contracts';
import { MockError, type MockContext, type NamedHandler, route } from '../http';
import { Prng, seedOf } from '../prng';
import type { Answer, MockPod, MockState } from '../types';

/** What each component writes to its log (pino's numeric level, message, extra fields). */
const LINES: Record<string, [number, string, Record<string, unknown>][]> = {
  api: [
    [
      30,
      'request completed',
      { req: { method: 'GET', url: '/api/agent' }, res: { statusCode: 200 }, responseTime: 4.1 },
    ],
    [
      30,
      'request completed',
      { req: { method: 'GET', url: '/api/recording?limit=50' }, res: { statusCode: 200 }, responseTime: 11.7 },
    ],
    [
      30,
      'request completed',
      { req: { method: 'POST', url: '/api/login' }, res: { statusCode: 200 }, responseTime: 83.2 },
    ],
    [
      40,
      'request completed',
      { req: { method: 'POST', url: '/api/login' }, res: { statusCode: 401 }, responseTime: 79.5 },
    ],
  ],
  gateway: [
    [30, 'session started', { user: 'bruno.silva@acme.example', host: 'web-01.prod' }],
    [30, 'session ended', { user: 'chen.wei@acme.example', host: 'db-01.prod', reason: 'client-closed' }],
    [40, 'authentication failed', { login: 'root@web-02.prod', source: '203.0.113.50' }],
  ],
  database: [
    [30, 'pool checked', { total: 12, idle: 9, waiting: 0 }],
    [20, 'query', { ms: 2.4, rows: 50 }],
  ],
  'recording-storage': [
    [30, 'chunk appended', { bytes: 4096 }],
    [30, 'retention sweep', { removed: 3 }],
  ],
  'agent-hub': [
    [30, 'agent connected', { hostname: 'api-02.prod' }],
    [20, 'heartbeat', { agents: 20 }],
    [40, 'agent silent, dropped', { hostname: 'ci-runner-02', silentSeconds: 16 }],
  ],
  redis: [
    [50, 'redis connection failed', { err: { message: 'connect ECONNREFUSED 10.0.3.7:6379' } }],
    [40, 'redis reconnecting', { attempt: 12, delayMs: 5000 }],
  ],
};

/** The newest `limit` log lines of a component, oldest first, one every few seconds up to now (JSON, as pino writes). */
function logLines(pod: MockPod, limit: number): string[] {
  const rng = new Prng(seedOf(pod.name));
  const kinds = LINES[pod.name] ?? [[30, 'ok', {}]];
  let at = Date.now();
  const lines: string[] = [];
  for (let i = 0; i < limit; i += 1) {
    const [level, msg, extra] = rng.pick(kinds);
    lines.push(
      JSON.stringify({ level, time: at, pid: 1, hostname: 'gatehouse-0', component: pod.name, msg, ...extra }),
    );
    at -= rng.int(500, 8000);
  }
  return lines.reverse();
}

/** Build identity, navigation counts and the components' health and logs. */
export function systemHandlers(state: MockState, context: MockContext): NamedHandler[] {
  return [
    route(context, 'metadata', () => ({ version: BUILD.version, buildNumber: BUILD.buildNumber, buildTag: 'mock' })),
    route(context, 'navigationCounts', (): Answer<'navigationCounts'> => {
      const unhealthy = state.pods.filter((pod) => pod.status !== 'Running').length;
      return {
        totalSessions: state.recordings.length,
        liveSessions: state.recordings.filter((row) => row.ended_on === null).length,
        totalHosts: state.agents.length,
        connectedHosts: state.agents.filter((agent) => agent.connected).length,
        totalGroups: state.groups.length,
        totalRoles: state.roles.length,
        totalTunnels: state.tunnels.length,
        totalUsers: state.users.length,
        totalRegistrationKeys: state.apiKeys.length,
        systemStatusHealthSummary: unhealthy === 0 ? 'Healthy' : unhealthy === 1 ? 'Problem' : 'Problems',
        totalUnhealthyPods: unhealthy,
      };
    }),
    route(context, 'listPods', () => ({
      pods: state.pods.map((pod) => ({ ...pod, checked_at: new Date().toISOString() })),
    })),
    route(context, 'podLogs', ({ params, query }) => {
      const pod = state.pods.find((p) => p.name === params.name);
      if (!pod) throw new MockError(404, `There is no component named ${params.name ?? ''}.`);
      const limit = Math.min(500, Math.max(1, Number(query.get('limit') ?? 200) || 200));
      return { pods: [{ ...pod, logs: logLines(pod, limit) }] };
    }),
  ];
}
