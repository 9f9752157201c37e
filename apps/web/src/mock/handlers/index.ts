import { type HttpHandler, delay, http } from 'msw';
import { MOCK_DELAY_MS, type MockContext, type NamedHandler, errorResponse } from '../http';
import type { MockRouteName } from '../routes';
import { createMockState } from '../state';
import type { MockState } from '../types';
import { auditHandlers } from './audit';
import { authHandlers } from './auth';
import { groupHandlers } from './groups';
import { hostHandlers } from './hosts';
import { mailHandlers } from './mail';
import { myAccessHandlers } from './my-access';
import { recordingHandlers } from './recordings';
import { roleHandlers } from './roles';
import { settingsHandlers } from './settings';
import { systemHandlers } from './system';
import { tunnelHandlers } from './tunnels';
import { twoFactorHandlers } from './two-factor';
import { userHandlers } from './users';

/** The mock API: its handlers, the routes they answer and the state they answer from. */
export interface MockApi {
  handlers: HttpHandler[];
  routes: MockRouteName[];
  state: MockState;
}

/**
 * Handlers for every call the console makes, answering from one generated organisation that
 * writes change. `base` is the console's URL (calls are relative to it); every answer waits
 * `delayMs` (200 ms, spec §9).
 */
export function createMockApi(options: { base: string; delayMs?: number; state?: MockState }): MockApi {
  const state = options.state ?? createMockState();
  const context: MockContext = { base: options.base, delayMs: options.delayMs ?? MOCK_DELAY_MS };
  const named: NamedHandler[] = [
    ...authHandlers(state, context),
    ...systemHandlers(state, context),
    ...userHandlers(state, context),
    ...myAccessHandlers(state, context),
    ...roleHandlers(state, context),
    ...groupHandlers(state, context),
    ...hostHandlers(state, context),
    ...tunnelHandlers(state, context),
    ...recordingHandlers(state, context),
    ...settingsHandlers(state, context),
    ...mailHandlers(state, context),
    ...auditHandlers(state, context),
    ...twoFactorHandlers(context),
  ];
  // A call of the API the mock does not know stays here (404) instead of reaching the real server.
  const elsewhere = ['api/*', 'sso/*', 'ldap/*'].map((path) =>
    http.all(`${context.base}${path}`, async ({ request }) => {
      await delay(context.delayMs);
      return errorResponse(404, `Mock data does not answer ${request.method} ${new URL(request.url).pathname}.`);
    }),
  );
  return { handlers: [...named.map((n) => n.handler), ...elsewhere], routes: named.map((n) => n.name), state };
}
