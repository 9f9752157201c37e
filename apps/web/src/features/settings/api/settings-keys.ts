/** Query keys of the settings feature. */
export const SETTINGS_KEYS = {
  license: ['settings', 'license'],
  ingressTls: ['settings', 'ingress-tls'],
  versions: ['settings', 'versions'],
  general: ['settings', 'general'],
} as const;
