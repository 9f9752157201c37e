import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../lib/api-client';
import { API } from '../../lib/api-routes';

/** GET api/permission: every permission a role or key can hold. It changes only with a release. */
export const permissionCatalogueQuery = queryOptions({
  queryKey: ['shared', 'permission-catalogue'],
  queryFn: () => apiCall(API.permissionCatalogue),
  staleTime: 30 * 60_000,
});

/** The permission catalogue; `enabled` false skips the call (for example while a dialog is shut). */
export function usePermissionCatalogue(enabled = true) {
  return useQuery({ ...permissionCatalogueQuery, enabled });
}
