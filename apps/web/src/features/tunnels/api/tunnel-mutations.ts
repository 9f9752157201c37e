import type { BodyOf, Routes } from '@gatehouse/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api-client';
import { API } from '../../../lib/api-routes';
import type { TunnelType } from './list-tunnels';
import { useInvalidateTunnels } from './tunnel-keys';

/** Fields a definition is created with. */
export type CreateTunnelBody = BodyOf<Routes['createTunnel']>;
/** Fields of a change; those not sent keep their value. */
export type UpdateTunnelBody = BodyOf<Routes['updateTunnel']>;

/** POST api/tunneldefinition/{type}; an ssh key-pair definition answers its public key. */
export function useCreateTunnel() {
  const invalidate = useInvalidateTunnels();
  return useMutation({
    mutationFn: ({ type, body }: { type: TunnelType; body: CreateTunnelBody }) =>
      apiCall(API.createTunnel, { params: { type }, body }),
    onSuccess: invalidate,
  });
}

/** PUT api/tunneldefinition/{id}. */
export function useUpdateTunnel() {
  const invalidate = useInvalidateTunnels();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateTunnelBody }) =>
      apiCall(API.updateTunnel, { params: { id }, body }),
    onSuccess: invalidate,
  });
}

/** DELETE api/tunneldefinition/{id}. */
export function useDeleteTunnel() {
  const invalidate = useInvalidateTunnels();
  return useMutation({
    mutationFn: (id: string) => apiCall(API.deleteTunnel, { params: { id } }),
    onSuccess: invalidate,
  });
}

/** PUT api/tunneldefinition/{id}/users: exactly these user ids are admitted directly. */
export function useSetTunnelUsers() {
  const invalidate = useInvalidateTunnels();
  return useMutation({
    mutationFn: ({ id, users }: { id: string; users: string[] }) =>
      apiCall(API.setTunnelUsers, { params: { id }, body: { users } }),
    onSuccess: invalidate,
  });
}

/** PUT api/tunneldefinition/{id}/agents {agents}: exactly these agents may open the tunnel. */
export function useSetTunnelAgents() {
  const invalidate = useInvalidateTunnels();
  return useMutation({
    mutationFn: ({ id, agents }: { id: string; agents: string[] }) =>
      apiCall(API.setTunnelAgents, { params: { id }, body: { agents } }),
    onSuccess: invalidate,
  });
}
