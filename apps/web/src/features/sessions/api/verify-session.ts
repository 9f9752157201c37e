import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';

/** The integrity of a recording: intact, tampered, live, unsigned or missing, and why. */
export type SessionIntegrity = ResponseOf<Routes['verifyRecording']>;

/** GET api/recording/{id}/verify, on demand: it reads the whole file, so only when asked. */
export function useVerifySession() {
  return useMutation({
    mutationFn: (id: string) => apiCall(API.verifyRecording, { params: { id } }),
  });
}
