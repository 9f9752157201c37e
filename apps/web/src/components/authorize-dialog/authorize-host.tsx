import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiCall } from '../../lib/api-client';
import { ApiError } from '../../lib/api-error';
import { API } from '../../lib/api-routes';
import { passkeysSupported, signWithPasskey } from '../../lib/passkeys';
import type { Authorization, AuthorizationRequest } from '../../lib/reauth';
import { AuthorizationCancelledError, onAuthorizationRequest, registerAuthorizer } from '../../lib/reauth';
import { getSession, subscribeSession } from '../../lib/session';
import { useSession } from '../../lib/use-session';
import { useSnackbar } from '../snackbar/snackbar-context';
import { AuthorizeDialog } from './authorize-dialog';

interface Pending {
  request: AuthorizationRequest;
  resolve: (authorization: Authorization) => void;
  reject: (error: Error) => void;
}

/** The server's reasons for refusing, one entry each (spec §8: each entry of response.errors). */
function reasonsOf(error: unknown, fallback: string): string[] {
  if (!(error instanceof ApiError)) return [fallback];
  const listed = error.body?.errors ?? error.body?.response?.errors ?? [];
  return listed.length > 0 ? listed : [error.body?.message || fallback];
}

/**
 * Mounts the Authorize dialog for the API client (lib/reauth): a call that needs authorization
 * opens it; Authorize calls POST api/auth/authorize with the password and hands the answer to
 * the waiting call (after a single sign-on in the popup, for an account with a second factor, it
 * asks only for the code or passkey and calls POST /sso/second-factor); Cancel rejects that call. A refused call first shows 'Authorization needed' (also
 * when a single sign-on session re-authorizes in the popup instead).
 */
export function AuthorizeHost() {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const { user } = useSession();
  const [pending, setPending] = useState<Pending | null>(null);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needsFactor, setNeedsFactor] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const pendingRef = useRef<Pending | null>(null);

  const finish = useCallback(() => {
    pendingRef.current = null;
    setPending(null);
    setPassword('');
    setCode('');
    setNeedsFactor(false);
    setErrors([]);
    setSubmitting(false);
  }, []);
  const cancelPrompt = useCallback(
    (message: string) => {
      pendingRef.current?.reject(new AuthorizationCancelledError(message));
      finish();
    },
    [finish],
  );
  const cancel = useEffectEvent(() => cancelPrompt(t('authorize.cancelled')));
  const announce = useEffectEvent((request: AuthorizationRequest) => {
    if (request.after401) snackbar.warning(t('authorize.needed'));
  });

  useEffect(() => {
    const unregister = registerAuthorizer(
      (request) =>
        new Promise<Authorization>((resolve, reject) => {
          const next = { request, resolve, reject };
          pendingRef.current = next;
          setPending(next);
        }),
    );
    // Said for the popup of single sign-on sessions too, which lib/reauth opens instead of the dialog.
    const unlisten = onAuthorizationRequest((request) => announce(request));
    // Signing out (or expiry) cancels what waits on the dialog.
    const unsubscribe = subscribeSession(() => {
      if (!getSession().user) cancel();
    });
    return () => {
      unregister();
      unlisten();
      unsubscribe();
      // Nothing can answer a prompt once the dialog is gone: the call waiting on it fails.
      cancel();
    };
  }, []);

  const submit = async (withPasskey = false) => {
    const waiting = pendingRef.current;
    if (!waiting) return;
    setSubmitting(true);
    setErrors([]);
    const quiet = { reauth: false, signOutOn401: false } as const;
    try {
      const sso = waiting.request.ssoStep;
      let factor = {};
      if (withPasskey) {
        const { challenge_id, options } = await apiCall(API.secondFactorPasskeyOptions, quiet);
        factor = { passkey: { challenge_id, credential: (await signWithPasskey(options)) as never } };
      } else if (needsFactor || sso) factor = { code: code.trim() };
      // After a single sign-on in the popup only the second factor is asked, with the step (issue 20).
      const answer = sso
        ? await apiCall(API.ssoSecondFactor, { body: { step: sso.step, ...factor }, ...quiet })
        : await apiCall(API.authorize, { body: { password, ...factor }, ...quiet });
      waiting.resolve(answer);
      finish();
    } catch (error) {
      // The account has a second factor (issue 20): ask for it with the password.
      if (error instanceof ApiError && error.body?.two_factor === 'verify') setNeedsFactor(true);
      setErrors(reasonsOf(error, t('message.somethingWentWrong')));
      setSubmitting(false);
    }
  };

  const ssoStep = pending?.request.ssoStep;
  return (
    <AuthorizeDialog
      open={pending !== null}
      email={user?.username ?? user?.email ?? ''}
      password={password}
      onPasswordChange={setPassword}
      submitting={submitting}
      errors={errors}
      after401={pending?.request.after401 ?? false}
      onSubmit={() => void submit()}
      needsFactor={needsFactor}
      code={code}
      onCodeChange={setCode}
      ssoMethods={ssoStep?.methods}
      onPasskey={
        passkeysSupported() && (ssoStep ? ssoStep.methods.includes('passkey') : needsFactor)
          ? () => void submit(true)
          : undefined
      }
      onCancel={() => cancelPrompt(t('authorize.cancelled'))}
    />
  );
}
