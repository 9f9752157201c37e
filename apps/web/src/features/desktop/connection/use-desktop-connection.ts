import { useEffect, useState, useSyncExternalStore } from 'react';
import type { DesktopState } from './desktop-connection';
import { DesktopConnection } from './desktop-connection';

/** One desktop connection for the screen's lifetime, closed when the screen goes away. */
export function useDesktopConnection(): { connection: DesktopConnection; state: DesktopState } {
  const [connection] = useState(() => new DesktopConnection());
  const state = useSyncExternalStore(connection.subscribe, connection.getState, connection.getState);
  useEffect(() => () => connection.dispose(), [connection]);
  return { connection, state };
}
