import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorText } from '../../../lib/api-error';
import { rememberSignInMethod } from '../../../lib/reauth';
import { signIn } from '../../../lib/session';
import type { SsoTokenAnswer } from '../api/sso-token';
import { storedUserOf, useSsoToken } from '../api/sso-token';
import { consoleOpener, tellOpener } from '../popup';
import { SsoStatus } from './sso-status';
import type { SsoStatusView } from './sso-status';

/** What to do with the answer: hand it to the console window that asked, sign in here, or neither. */
type Outcome = 'hand-over' | 'sign-in' | 'orphaned';

function outcomeOf(answer: SsoTokenAnswer, opener: Window | null): Outcome {
  // Only a re-authorization goes back to the opener: a sign-in token may belong to someone else.
  if (answer.purpose === 'authorize' && opener) return 'hand-over';
  // A one-shot token is good for the one call that waits in the console window, and nothing else;
  // a second-factor step, for the console window that started the re-authorization.
  if (answer.purpose === 'authorize' && answer.kind !== 'session') return 'orphaned';
  return 'sign-in';
}

/**
 * /sso after the identity provider (spec §4 single sign-on token fetch): fetches the token once.
 * In the popup of a re-authorization it posts newAuthToken (or, for an account with a second
 * factor, the step that proves it) to the console window (this origin only) and closes; otherwise it stores token and user as a sign-in does and opens the start page.
 * A failure shows the error (spec §8), and is told to the waiting console window too.
 */
export function SsoTokenExchange() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const token = useSsoToken(true);
  const opener = consoleOpener();
  const outcome = token.data ? outcomeOf(token.data, opener) : null;
  const failure = token.error ? errorText(token.error, t('message.somethingWentWrong')) : null;
  const handled = useRef<unknown>(null);

  useEffect(() => {
    const settled = token.data ?? failure;
    if (settled === null || handled.current === settled) return;
    handled.current = settled;
    if (failure !== null) {
      if (opener) tellOpener(opener, { type: 'ssoError', message: failure });
      return;
    }
    const answer = token.data;
    if (!answer) return;
    if (answer.kind === 'second-factor') {
      // The console window asks for the second factor in its Authorize dialog (issue 20).
      if (outcome === 'hand-over' && opener) {
        const { step, methods } = answer.second_factor;
        tellOpener(opener, { type: 'secondFactor', step, methods });
        window.close();
      }
      return;
    }
    const { user } = answer.response;
    if (outcome === 'hand-over' && opener) {
      tellOpener(opener, {
        type: 'newAuthToken',
        token: user.authentication_token,
        kind: answer.kind,
        expires_at: user.expires_at,
      });
      window.close();
    } else if (outcome === 'sign-in') {
      rememberSignInMethod('sso');
      signIn(user.authentication_token, storedUserOf(user));
      void navigate('/', { replace: true });
    }
  }, [token.data, failure, outcome, opener, navigate]);

  let view: SsoStatusView;
  if (failure !== null) view = { kind: 'failed', text: failure };
  else if (outcome === 'orphaned') view = { kind: 'failed', text: t('singleSignOn.orphaned') };
  else if (outcome === 'hand-over') view = { kind: 'done', text: t('singleSignOn.authorized') };
  else view = { kind: 'working', text: t('singleSignOn.completing') };
  return <SsoStatus view={view} inPopup={opener !== null} />;
}
