import { z } from 'zod';
import { defineRoute } from '../route.js';

/** The file name of the self-contained agent the server serves. */
export const AGENT_BUNDLE_FILE = 'gatehouse-agent.mjs';

/** Headers that come with the agent file: its SHA-256 (hex) and its version. */
export const AGENT_SHA256_HEADER = 'x-gatehouse-agent-sha256';
export const AGENT_VERSION_HEADER = 'x-gatehouse-agent-version';

/** What the server says about the agent file it serves. */
export const AgentBundleManifest = z
  .object({
    file: z.literal(AGENT_BUNDLE_FILE),
    version: z.string().describe('The agent’s version'),
    sha256: z.string().describe('SHA-256 of the file, lowercase hex'),
    bytes: z.number().int(),
    url: z.string().describe('Path of the file on this server'),
    install_url: z.string().describe('Path of the install script on this server'),
  })
  .meta({ id: 'AgentBundleManifest' });
export type AgentBundleManifest = z.infer<typeof AgentBundleManifest>;

export const agentBundleManifest = defineRoute({
  id: 'agent.bundle.manifest',
  method: 'GET',
  path: '/api/agent/manifest',
  tag: 'agents',
  summary:
    'The self-contained agent this server serves: version and SHA-256. Public: the file and the script hold no secret.',
  access: { kind: 'public' },
  response: AgentBundleManifest,
  errors: { 503: 'The agent file is not built on this server (npm run build)' },
});

export const agentBundleDownload = defineRoute({
  id: 'agent.bundle.download',
  method: 'GET',
  path: `/api/agent/download/${AGENT_BUNDLE_FILE}`,
  tag: 'agents',
  summary:
    'The agent as one file that runs on Node.js 20 or later with no node_modules (node gatehouse-agent.mjs --help); ' +
    'its SHA-256 and version in the X-Gatehouse-Agent-Sha256 and X-Gatehouse-Agent-Version headers.',
  access: { kind: 'public' },
  raw: 'text/javascript',
  response: z.string(),
  errors: { 503: 'The agent file is not built on this server (npm run build)' },
});

export const agentInstallScript = defineRoute({
  id: 'agent.install-script',
  method: 'GET',
  path: '/api/agent/install.sh',
  tag: 'agents',
  summary:
    'The Linux install script: curl -fsSL SERVER/api/agent/install.sh | sudo sh -s -- --key REGISTRATION_KEY. ' +
    'Installs the agent file (checked against its SHA-256) in /opt/gatehouse-agent, runs it as the system user ' +
    'gatehouse-agent under systemd, enrols once; run again, it upgrades in place. The server URL in it is the ' +
    'public URL setting, else GATEHOUSE_PUBLIC_URL, else this request’s origin.',
  access: { kind: 'public' },
  raw: 'text/x-shellscript',
  response: z.string(),
  errors: {
    400: 'No public URL is set and the request’s Host is not a plain host name',
    503: 'The agent file is not built on this server (npm run build)',
  },
});
