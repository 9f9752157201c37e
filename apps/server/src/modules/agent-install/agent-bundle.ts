import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AGENT_BUNDLE_FILE } from '@gatehouse/contracts';
import { HttpError } from '../../http/errors.js';

/**
 * apps/agent/dist, where `npm run build` puts the self-contained agent (scripts/bundle.mjs) and the
 * install script's template. The same three levels up from src/ and from dist/.
 */
export const AGENT_DIST_DIR = fileURLToPath(new URL('../../../../agent/dist/', import.meta.url));

/** The agent file as served: its bytes, SHA-256 and version. */
export interface AgentBundle {
  bytes: Buffer;
  sha256: string;
  version: string;
  template: string;
}

const NOT_BUILT =
  'The agent file is not built on this server: run npm run build (it writes apps/agent/dist/gatehouse-agent.mjs).';

/**
 * Reads the built agent and the install script's template, and hashes the agent; kept until the
 * files change on disk (a rebuild is served without a restart). A build artefact, the same on
 * every instance: nothing here is state another instance needs.
 */
export class AgentBundleStore {
  private cached: { key: string; bundle: AgentBundle } | undefined;

  constructor(private readonly dir: string = AGENT_DIST_DIR) {}

  load(): AgentBundle {
    const file = `${this.dir}${AGENT_BUNDLE_FILE}`;
    const template = `${this.dir}install.sh`;
    let key: string;
    try {
      const a = fs.statSync(file);
      const b = fs.statSync(template);
      key = `${a.mtimeMs}:${a.size}:${b.mtimeMs}:${b.size}`;
    } catch {
      throw new HttpError(503, NOT_BUILT);
    }
    if (this.cached?.key === key) return this.cached.bundle;
    const bytes = fs.readFileSync(file);
    const manifest = readVersion(`${this.dir}gatehouse-agent.json`);
    const bundle: AgentBundle = {
      bytes,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      version: manifest,
      template: fs.readFileSync(template, 'utf8'),
    };
    this.cached = { key, bundle };
    return bundle;
  }
}

function readVersion(path: string): string {
  try {
    const { version } = JSON.parse(fs.readFileSync(path, 'utf8')) as { version?: unknown };
    if (typeof version === 'string' && /^[0-9A-Za-z.+-]{1,50}$/.test(version)) return version;
  } catch {
    // Falls through: the file is served without a version rather than not at all.
  }
  return 'unknown';
}
