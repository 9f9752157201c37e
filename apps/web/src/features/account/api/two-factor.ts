import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { createPasskey } from '../../../lib/passkeys';
import { enrolmentDone } from '../../../lib/two-factor-gate';
import { ACCOUNT_KEY } from './me';

/** The caller's second factors, as GET api/user/two-factor answers them. */
export type TwoFactorStatus = ResponseOf<Routes['twoFactorStatus']>;
/** One registered passkey. */
export type Passkey = TwoFactorStatus['passkeys'][number];

/** The key of the two-factor status, refreshed after every change. */
export const TWO_FACTOR_KEY = [...ACCOUNT_KEY, 'two-factor'] as const;

/** GET api/user/two-factor. */
export function useTwoFactorStatus() {
  return useQuery({
    queryKey: TWO_FACTOR_KEY,
    queryFn: ({ signal }) => apiCall(API.twoFactorStatus, { signal }),
  });
}

/** Refreshes the status after a change; a user who now has a factor may use the console again. */
function useRefresh() {
  const client = useQueryClient();
  return async () => {
    await client.invalidateQueries({ queryKey: TWO_FACTOR_KEY });
    const status = client.getQueryData<TwoFactorStatus>(TWO_FACTOR_KEY);
    if (status && (status.totp || status.passkeys.length > 0)) enrolmentDone();
  };
}

/** POST api/user/two-factor/totp: a new secret and its otpauth:// URI, shown once for the QR code. */
export function useStartTotp() {
  return useMutation({ mutationFn: () => apiCall(API.startTotp) });
}

/** POST api/user/two-factor/totp/confirm: the app is set up once a code it shows is proven. */
export function useConfirmTotp() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (code: string) => apiCall(API.confirmTotp, { body: { code } }),
    onSuccess: refresh,
  });
}

/** DELETE api/user/two-factor/totp (needs a re-authorization with the factor). */
export function useRemoveTotp() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: () => apiCall(API.removeTotp), onSuccess: refresh });
}

/** POST api/user/two-factor/recovery-codes: a new set, shown once. */
export function useNewRecoveryCodes() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: () => apiCall(API.newRecoveryCodes), onSuccess: refresh });
}

/** Registers a passkey: the server's options, the browser's creation, then POST api/user/passkeys. */
export function useAddPasskey() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (name: string) => {
      const { challenge_id, options } = await apiCall(API.passkeyRegistrationOptions);
      const credential = await createPasskey(options);
      return apiCall(API.addPasskey, { body: { challenge_id, credential: credential as never, name } });
    },
    onSuccess: refresh,
  });
}

/** DELETE api/user/passkeys/{id} (needs a re-authorization with a factor). */
export function useRemovePasskey() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => apiCall(API.removePasskey, { params: { id } }),
    onSuccess: refresh,
  });
}
