import type { AuditEntry } from '@gatehouse/contracts';
import { MockError, type MockContext, type NamedHandler, route } from '../http';
import { Prng, seedOf } from '../prng';
import type { Answer, MockState } from '../types';

/** What the mock trail is made of: an action, a target kind and how often it is refused or fails. */
const KINDS: readonly [action: string, target: 'user' | 'host' | 'none', refused: number][] = [
  ['auth.login', 'none', 0.15],
  ['auth.logout', 'none', 0],
  ['user.created', 'user', 0.05],
  ['user.role.removed', 'user', 0.1],
  ['tunnel.deleted', 'host', 0.05],
  ['agent.config.saved', 'host', 0.05],
  ['recording.hold.placed', 'host', 0.1],
  ['audit.export', 'none', 0],
];

const trails = new WeakMap<MockState, AuditEntry[]>();
const streaming = new WeakMap<MockState, Answer<'getAuditStreaming'>>();

/** 400 entries over the last two weeks, newest first, by the organisation's own people and hosts. */
function trailOf(state: MockState): AuditEntry[] {
  const known = trails.get(state);
  if (known) return known;
  const rng = new Prng(seedOf('audit'));
  const entries: AuditEntry[] = [];
  let at = state.now;
  for (let id = 400; id >= 1; id -= 1) {
    const [action, targetKind, refused] = rng.pick(KINDS);
    const actor = rng.pick(state.users).email;
    const failed = rng.chance(refused);
    const target =
      targetKind === 'user'
        ? rng.pick(state.users).email
        : targetKind === 'host'
          ? rng.pick(state.agents).hostname
          : null;
    entries.push({
      id,
      at: new Date(at).toISOString(),
      actor,
      action,
      target,
      outcome: failed ? (action === 'auth.login' ? 'failure' : 'denied') : 'success',
      status: failed ? (action === 'auth.login' ? 401 : 403) : 200,
      source: `203.0.113.${rng.int(2, 250)}`,
      detail: action === 'recording.hold.placed' ? { reason: 'Incident review' } : null,
    });
    at -= rng.int(30_000, 3_600_000);
  }
  trails.set(state, entries);
  return entries;
}

/** The entries the query's filters keep, in its order. */
function filtered(state: MockState, query: URLSearchParams): AuditEntry[] {
  const text = (name: string) => query.get(name)?.trim().toLowerCase() ?? '';
  const [actor, target, q] = [text('actor'), text('target'), text('q')];
  const from = query.get('from') ? Date.parse(query.get('from') ?? '') : -Infinity;
  const to = query.get('to') ? Date.parse(query.get('to') ?? '') : Infinity;
  const rows = trailOf(state).filter(
    (e) =>
      (!actor || (e.actor ?? '').toLowerCase().includes(actor)) &&
      (!target || (e.target ?? '').toLowerCase().includes(target)) &&
      (!query.get('action') || e.action === query.get('action')) &&
      (!query.get('outcome') || e.outcome === query.get('outcome')) &&
      (!q || JSON.stringify(e).toLowerCase().includes(q)) &&
      Date.parse(e.at) >= from &&
      Date.parse(e.at) < to,
  );
  return query.get('order') === 'asc' ? rows.reverse() : rows;
}

const status = () => ({
  delivered_through: 0,
  pending: 0,
  last_delivery_at: null,
  last_error: null,
  last_error_at: null,
  next_attempt_at: null,
});

/** The audit screen: list, actions, export and the streaming settings. */
export function auditHandlers(state: MockState, context: MockContext): NamedHandler[] {
  const settings = () => {
    const known = streaming.get(state);
    if (known) return known;
    const fresh: Answer<'getAuditStreaming'> = {
      syslog: { enabled: false, host: '', port: 6514, tls: true, ca: '', facility: 'authpriv' },
      webhook: { enabled: false, url: '', secret_set: false },
      status: { syslog: status(), webhook: status() },
    };
    streaming.set(state, fresh);
    return fresh;
  };
  return [
    route(context, 'auditList', ({ query }) => {
      const rows = filtered(state, query);
      const limit = Math.min(500, Math.max(1, Number(query.get('limit') ?? 100) || 100));
      const start = Number(query.get('cursor') ?? 0) || 0;
      const page = rows.slice(start, start + limit);
      return { entries: page, next_cursor: start + limit < rows.length ? String(start + limit) : null };
    }),
    route(context, 'auditActions', () => ({ actions: [...new Set(KINDS.map(([action]) => action))].sort() })),
    route(context, 'auditExport', ({ query }) => {
      const rows = filtered(state, query);
      const jsonl = query.get('format') === 'jsonl';
      const body = jsonl
        ? rows.map((row) => `${JSON.stringify(row)}\n`).join('')
        : `id,at,actor,action,target,outcome,status,source,detail\r\n${rows
            .map((r) => [r.id, r.at, r.actor, r.action, r.target, r.outcome, r.status, r.source, ''].join(','))
            .join('\r\n')}\r\n`;
      return new Response(body, {
        headers: {
          'Content-Type': jsonl ? 'application/x-ndjson' : 'text/csv',
          'Content-Disposition': `attachment; filename="gatehouse-audit-mock.${jsonl ? 'jsonl' : 'csv'}"`,
        },
      });
    }),
    route(context, 'getAuditStreaming', () => settings()),
    route(context, 'saveAuditStreaming', ({ body }) => {
      const sent = body as {
        syslog: Answer<'getAuditStreaming'>['syslog'];
        webhook: { enabled: boolean; url: string; secret?: string };
      };
      const current = settings();
      const secretSet = current.webhook.secret_set || Boolean(sent.webhook.secret);
      if (sent.webhook.enabled && !secretSet)
        throw new MockError(400, 'webhook secret is required to enable the webhook (16 to 200 characters).');
      const next = {
        ...current,
        syslog: sent.syslog,
        webhook: { enabled: sent.webhook.enabled, url: sent.webhook.url, secret_set: secretSet },
      };
      streaming.set(state, next);
      return next;
    }),
  ];
}
