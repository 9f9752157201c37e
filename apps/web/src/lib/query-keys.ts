/** Query keys more than one feature touches: a change anywhere refreshes the navigation counts. */
export const QUERY_KEYS = {
  navigationCounts: ['system', 'navigation-counts'],
  /** The agent list (features/hosts); live socket events invalidate it. */
  agents: ['hosts', 'agents'],
  /** Tunnel lists (features/tunnels); refreshed after any tunnel, group, role or user change (spec §4). */
  tunnels: ['tunnels'],
  /** Registration keys (features/registration-keys, and hosts' Add host flow). */
  registrationKeys: ['registration-keys'],
  /** Session recordings (features/sessions): the list and details; the socket reloads them on disconnect and termination. */
  sessions: ['sessions'],
  /** The security settings (GET api/security): the auth feature reads them, the settings feature saves them. */
  security: ['auth', 'security'],
} as const;
