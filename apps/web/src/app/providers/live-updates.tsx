import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ConsoleSocket, SOCKET_EVENTS } from '../../lib/console-socket';
import { QUERY_KEYS } from '../../lib/query-keys';
import { useSession } from '../../lib/use-session';

/**
 * Keeps the console's socket open while someone is signed in, and turns server events into
 * fresh data: agent changes refresh the agent list and the navigation counts without a reload.
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
    });
    return () => {
      offAgents();
      offCounts();
      socket.close();
    };
  }, [token, queryClient]);
  return null;
}
