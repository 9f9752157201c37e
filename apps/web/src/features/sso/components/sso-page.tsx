import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { consoleOpener, tellOpener } from '../popup';
import { SsoAuthorizeStart } from './sso-authorize-start';
import { SsoStatus } from './sso-status';
import { SsoTokenExchange } from './sso-token-exchange';

/** /sso?error=…: the server's reason the sign-on was refused (spec §8), told to a waiting console window too. */
function SsoRefused({ message }: { message: string }) {
  const opener = consoleOpener();
  useEffect(() => {
    if (opener) tellOpener(opener, { type: 'ssoError', message });
  }, [opener, message]);
  return <SsoStatus view={{ kind: 'failed', text: message }} inPopup={opener !== null} />;
}

/**
 * /sso and /ssoauth (spec §2.1, §2.8, §4): an error from the server is shown; /ssoauth with
 * purpose=authorize starts a re-authorization in the popup; otherwise the completed sign-on's
 * token is fetched and used.
 */
export function SsoPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const error = params.get('error');
  if (error !== null) return <SsoRefused message={error.trim() || t('message.somethingWentWrong')} />;
  if (pathname.toLowerCase() === '/ssoauth' && params.get('purpose') === 'authorize') return <SsoAuthorizeStart />;
  return <SsoTokenExchange />;
}
