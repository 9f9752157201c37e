import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/api-error';
import { useSession } from '../../../lib/use-session';
import { useStartSsoAuthorize } from '../api/start-sso';
import { consoleOpener, tellOpener } from '../popup';
import { SsoStatus } from './sso-status';

/**
 * /ssoauth?purpose=authorize, in the popup the console opens to re-authorize (spec §2.8): starts
 * the flow once with the signed-in user's token and goes on to the identity provider, which sends
 * the popup back to /sso. Without a session, or when the server refuses, it shows why.
 */
export function SsoAuthorizeStart() {
  const { t } = useTranslation();
  const { token } = useSession();
  const { mutate, error, isError } = useStartSsoAuthorize();
  const started = useRef(false);
  const opener = consoleOpener();
  const failure = !token
    ? t('singleSignOn.signInFirst')
    : isError
      ? errorText(error, t('message.somethingWentWrong'))
      : null;

  useEffect(() => {
    // Once only: a second flow would replace the first one's cookie and make it fail at its end.
    if (started.current || !token) return;
    started.current = true;
    mutate();
  }, [token, mutate]);

  useEffect(() => {
    if (failure !== null && opener) tellOpener(opener, { type: 'ssoError', message: failure });
  }, [failure, opener]);

  return (
    <SsoStatus
      view={
        failure === null ? { kind: 'working', text: t('singleSignOn.redirecting') } : { kind: 'failed', text: failure }
      }
      inPopup={opener !== null}
    />
  );
}
