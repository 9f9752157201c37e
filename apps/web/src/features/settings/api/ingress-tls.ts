import type { BodyOf, ResponseOf, Routes } from '@gatehouse/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useSession } from '../../../lib/use-session';
import { SETTINGS_KEYS } from './settings-keys';

/** The ingress certificate, described (spec §3 Ingress certificate); never its key. */
export type IngressCertificate = ResponseOf<Routes['getIngressTls']>;

/** What uploading a certificate sends: the PEM chain (leaf first) and its private key. */
export type CertificateUpload = BodyOf<Routes['saveIngressTls']>;

/** GET api/ingress-tls. */
export const ingressTlsQuery = queryOptions({
  queryKey: SETTINGS_KEYS.ingressTls,
  queryFn: ({ signal }) => apiCall(API.getIngressTls, { signal }),
  staleTime: 5 * 60_000,
});

/** The ingress certificate while signed in (its expiry warnings need it). */
export function useIngressTls() {
  const { token } = useSession();
  return useQuery({ ...ingressTlsQuery, enabled: token !== null });
}

/** POST api/ingress-tls: installs a chain and key; every server instance switches to it. */
export function useSaveIngressTls() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CertificateUpload) => apiCall(API.saveIngressTls, { body }),
    onSuccess: (answer) => client.setQueryData(SETTINGS_KEYS.ingressTls, answer.certificate),
  });
}
