/** Where the agent keeps its identity and applied config between runs. */
export const AGENT_STATE_DIR = '/var/lib/gatehouse-agent';

/** Stands in for a key whose secret the console no longer has. */
export const KEY_PLACEHOLDER = '<REGISTRATION_KEY>';

function server(origin: string): string {
  return origin.replace(/\/+$/, '');
}

/**
 * The one-line install for a Linux host with systemd (issue 17): the server's install script
 * downloads the one-file agent, installs it as the gatehouse-agent service and enrols with the key.
 */
export function installCommand(origin: string, key: string): string {
  return `curl -fsSL ${server(origin)}/api/agent/install.sh | sudo sh -s -- --key ${key}`;
}

/** The command that enrols a host from a clone of the repository: `npx gatehouse-agent --server … --key … --state-dir …`. */
export function agentCommand(origin: string, key: string): string {
  return `npx gatehouse-agent --server ${server(origin)} --key ${key} --state-dir ${AGENT_STATE_DIR}`;
}

/** The same, with the settings as environment variables (for service files and containers). */
export function agentEnvironment(origin: string, key: string): string {
  return [
    `export GATEHOUSE_SERVER=${server(origin)}`,
    `export GATEHOUSE_REGISTRATION_KEY=${key}`,
    `export GATEHOUSE_AGENT_STATE_DIR=${AGENT_STATE_DIR}`,
    'npx gatehouse-agent',
  ].join('\n');
}

/** This console's origin, such as https://gatehouse.example.com. */
export function consoleOrigin(): string {
  return typeof window === 'undefined' ? '' : window.location.origin;
}
