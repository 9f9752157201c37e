import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import { useInvalidateGroups } from './group-keys';

/** PUT api/group/{name}/agents with the agents' ids. */
export function useAddGroupAgents() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: ({ group, agents }: { group: string; agents: string[] }) =>
      apiCall(API.addGroupAgents, { params: { name: group }, body: { agents } }),
    onSuccess: invalidate,
  });
}
