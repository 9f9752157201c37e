/** Where the agent keeps its identity between runs. */
export const AGENT_STATE_DIR = '/var/lib/gatehouse-agent';

/** The command that starts an agent registering with this server using a new key. */
export function agentCommand(origin: string, key: string): string {
  return `npx gatehouse-agent --server ${origin.replace(/\/+$/, '')} --key ${key} --state-dir ${AGENT_STATE_DIR}`;
}

/** This console's origin, such as https://gatehouse.example.com. */
export function consoleOrigin(): string {
  return typeof window === 'undefined' ? '' : window.location.origin;
}
