import { ADMIN_ROLE } from '@gatehouse/contracts';
import { mailToken, resetMail } from '../data/mail';
import { MockError, type MockContext, type NamedHandler, route } from '../http';
import { Prng } from '../prng';
import type { MockState } from '../types';

const GONE = 'This message is no longer in the outbox: it was deleted.';

/** Only holders of the admin role read the outbox, as on the server (a reset link opens an account). */
function requireAdmin(state: MockState, caller: string | null): void {
  const user = state.users.find((u) => u.email === caller);
  if (!user?.roles.includes(ADMIN_ROLE)) throw new MockError(403, 'Only holders of the admin role may do this.');
}

/** A whole number query value within bounds, else the default. */
function bounded(value: string | null, fallback: number, min: number, max: number): number {
  const n = value === null ? Number.NaN : Number(value);
  return Number.isInteger(n) && n >= min && n <= max ? n : fallback;
}

/**
 * With no SMTP host set, keeps a password-reset message in the outbox as the server would;
 * answers whether it did (with a host, the mock pretends it was sent).
 */
export function keepResetMail(state: MockState, to: string, why: string): boolean {
  if (state.settings.smtp.host) return false;
  const rng = new Prng(Date.now() >>> 0);
  const message = resetMail(
    {
      id: rng.uuid(),
      from: state.settings.smtp.from,
      to,
      at: Date.now(),
      publicUrl: state.settings.public_url,
      token: mailToken(rng),
    },
    why,
  );
  state.outbox.unshift(message);
  return true;
}

/** The mail outbox: mail kept instead of sent, for administrators to read and delete. */
export function mailHandlers(state: MockState, context: MockContext): NamedHandler[] {
  return [
    route(context, 'listOutbox', ({ query, caller }) => {
      requireAdmin(state, caller);
      const offset = bounded(query.get('offset'), 0, 0, 10_000_000);
      const limit = bounded(query.get('limit'), 50, 1, 200);
      return {
        smtp_configured: Boolean(state.settings.smtp.host),
        total: state.outbox.length,
        messages: state.outbox.slice(offset, offset + limit).map(({ text: _text, ...entry }) => entry),
      };
    }),
    route(context, 'getOutboxMessage', ({ params, caller }) => {
      requireAdmin(state, caller);
      const message = state.outbox.find((m) => m.id === params.id);
      if (!message) throw new MockError(404, GONE);
      return message;
    }),
    route(context, 'deleteOutboxMessage', ({ params, caller }) => {
      requireAdmin(state, caller);
      const before = state.outbox.length;
      state.outbox = state.outbox.filter((m) => m.id !== params.id);
      if (state.outbox.length === before) throw new MockError(404, GONE);
      return { message: 'Message deleted' };
    }),
  ];
}
