/** Query keys of the settings feature. */
export const SETTINGS_KEYS = {
  license: ['settings', 'license'],
  ingressTls: ['settings', 'ingress-tls'],
  versions: ['settings', 'versions'],
  signingKey: ['settings', 'signing-key'],
  general: ['settings', 'general'],
  /** The mail outbox: its list, and each message read. */
  outbox: ['settings', 'outbox'],
  outboxList: ['settings', 'outbox', 'list'],
  outboxMessage: (id: string) => ['settings', 'outbox', 'message', id] as const,
} as const;
