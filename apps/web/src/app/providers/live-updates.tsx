import type { SESSION_EVENTS } from '@gatehouse/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { CLUSTER_UPDATE_EVENT, applyClusterUpdate } from '../../features/system/api/cluster-updates';
import { ConsoleSocket, SOCKET_EVENTS } from '../../lib/console-socket';
import { QUERY_KEYS } from '../../lib/query-keys';
import { useSession } from '../../lib/use-session';

/** The socket event of a session's end (typed against the contract, so no contract code enters the initial bundle). */
const SESSION_TERMINATED: (typeof SESSION_EVENTS)['terminated'] = 'tunnel_terminated';

/**
 * Keeps the console's socket open while someone is signed in, and turns server events into
 * fresh data: agent changes refresh the agent list and the navigation counts without a reload;
 * sessions starting, ending or terminated refresh the session list.
 */
export function LiveUpdates() {
  const { token } = useSession();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!token) return;
    const socket = new ConsoleSocket(token);
    const offAgents = socket.on(SOCKET_EVENTS.agentsChanged, () => {
      void queryClient.invalidateQueries({ queryKey: QUERY_KEYS.agents });
    });
    const offCounts = socket.on(SOCKET_EVENTS.countsChanged, () => {
      void queryClient.invalidateQueries({ queryKey: QUERY_KEYS.navigationCounts });
      // Counts change when a session starts or ends: a session list on screen follows.
      void queryClient.invalidateQueries({ queryKey: QUERY_KEYS.sessions });
    });
    // Spec §4: the session list reloads on the socket's disconnect and on tunnel_terminated.
    const reloadSessions = () => void queryClient.invalidateQueries({ queryKey: QUERY_KEYS.sessions });
    const offDisconnect = socket.on('disconnect', reloadSessions);
    const offTerminated = socket.on(SESSION_TERMINATED, reloadSessions);
    // Spec §4: the cluster status socket's update refreshes the status screen and the navigation's health.
    const offCluster = socket.on(CLUSTER_UPDATE_EVENT, (payload) => applyClusterUpdate(queryClient, payload));
    return () => {
      offAgents();
      offCounts();
      offDisconnect();
      offTerminated();
      offCluster();
      socket.close();
    };
  }, [token, queryClient]);
  return null;
}
