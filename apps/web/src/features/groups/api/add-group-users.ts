import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateGroups } from './group-keys';

/** Users to add: the group and the users' emails. */
export interface GroupUsersChange {
  group: string;
  users: string[];
}

/** PUT api/group/{name}/users; 409 when every user named is a member already. */
export function useAddGroupUsers() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: ({ group, users }: GroupUsersChange) =>
      apiCall(API.addGroupUsers, { params: { name: group }, body: { users } }),
    onSuccess: invalidate,
  });
}
