import type { ResponseOf, Routes } from '@gatehouse/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { SETTINGS_KEYS } from './settings-keys';

/** Versions of the components and the desired agent version tag. */
export type Versions = ResponseOf<Routes['getVersions']>;

/** GET api/versions. */
export function useVersions() {
  return useQuery({
    queryKey: SETTINGS_KEYS.versions,
    queryFn: ({ signal }) => apiCall(API.getVersions, { signal }),
  });
}

/** POST api/version: sets the desired agent version tag (manage-kubernetes). */
export function useSaveVersion() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (agentVersion: string) => apiCall(API.saveVersion, { body: { agent_version: agentVersion } }),
    onSuccess: (answer) => client.setQueryData(SETTINGS_KEYS.versions, answer.versions),
  });
}
