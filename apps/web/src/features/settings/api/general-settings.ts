import type { BodyOf, ResponseOf, Routes } from '@gatehouse/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { SETTINGS_KEYS } from './settings-keys';

/** General settings as the server answers them (the SMTP password never comes back). */
export type GeneralSettings = ResponseOf<Routes['getSettings']>;

/** What saving general settings sends: only the fields sent change. */
export type GeneralSettingsBody = BodyOf<Routes['saveSettings']>;

/** GET api/settings (manage-settings). */
export function useGeneralSettings(enabled: boolean) {
  return useQuery({
    queryKey: SETTINGS_KEYS.general,
    queryFn: ({ signal }) => apiCall(API.getSettings, { signal }),
    enabled,
  });
}

/** POST api/settings; the answer (without its message) replaces the cached settings. */
export function useSaveGeneralSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: GeneralSettingsBody) => apiCall(API.saveSettings, { body }),
    onSuccess: ({ message: _message, ...settings }) => client.setQueryData(SETTINGS_KEYS.general, settings),
  });
}
