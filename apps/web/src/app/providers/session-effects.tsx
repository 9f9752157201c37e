import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useRefreshStoredUser } from '../../features/auth/api/me';
import { useSecuritySettings } from '../../features/auth/api/security';
import { signOut } from '../../lib/session';
import { useSession } from '../../lib/use-session';

const LONGEST_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Session upkeep without UI: refreshes the stored user on load, runs the token-expiry timer
 * (effectiveTokenMaxAge seconds when above 0; the sign-in screen then says the session expired) and empties the query cache on sign-out.
 */
export function SessionEffects() {
  const { token, since } = useSession();
  const queryClient = useQueryClient();
  const { data: security } = useSecuritySettings();
  const hadToken = useRef(token !== null);
  useRefreshStoredUser();

  const maxAge = security?.effectiveTokenMaxAge ?? 0;
  useEffect(() => {
    if (!token || maxAge <= 0) return;
    const remaining = since + maxAge * 1000 - Date.now();
    const timer = window.setTimeout(
      () => signOut({ kind: 'expired' }),
      Math.min(Math.max(remaining, 0), LONGEST_TIMEOUT_MS),
    );
    return () => window.clearTimeout(timer);
  }, [token, since, maxAge]);

  useEffect(() => {
    if (hadToken.current && token === null) queryClient.clear();
    hadToken.current = token !== null;
  }, [token, queryClient]);

  return null;
}
