import type { TFunction } from 'i18next';

/** The codes the server records as a session's end_reason (gateway, tunnel endpoint, desktops, recovery). */
export const END_REASONS = [
  'client-closed',
  'closed',
  'terminated',
  'host-disconnected',
  'server-stopped',
  'recovered',
  'not-filmed',
  'idle',
  'revoked',
  'database-unavailable',
  'failed',
] as const;

/**
 * A session's end reason in words of the console language, for every screen that shows it (the
 * sessions detail, the player): a code the console does not know yet still reads as a sentence,
 * with the code in brackets, never as a bare code.
 */
export function endReasonText(reason: string, t: TFunction): string {
  return (END_REASONS as readonly string[]).includes(reason)
    ? t(`sessionEnd.${reason}`)
    : t('sessionEnd.other', { code: reason });
}
