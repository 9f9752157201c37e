import { HttpError } from '../../http/errors.js';
import type { AgentBundle } from './agent-bundle.js';

/**
 * A server URL that may go into the install script, the systemd unit and the agent's command line
 * as it is: http(s), a DNS name, IPv4 or bracketed IPv6, an optional port and a plain path. No
 * quote, space, $, `, %, \ or ; can pass, so nothing in it is ever read by a shell or by systemd.
 */
const SAFE_URL =
  /^https?:\/\/(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?(?:\/[A-Za-z0-9._~-]+)*$/;

/** Whether a URL can be put in the install script (see SAFE_URL). */
export function isScriptSafeUrl(url: string): boolean {
  return url.length <= 500 && SAFE_URL.test(url);
}

/** A value between single quotes for sh: the only character to escape there is the quote itself. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * Where the install script sends the host: the public URL setting, else GATEHOUSE_PUBLIC_URL, else
 * the origin of the request that asked for the script. The Host header is the client's to choose,
 * so that last one must be a plain host name (and only ever reaches the client that sent it).
 */
export function serverUrlFor(configured: string | undefined, request: { protocol: string; host: string }): string {
  if (configured) {
    const url = configured.trim().replace(/\/+$/, '');
    if (!isScriptSafeUrl(url))
      throw new HttpError(
        503,
        'The public URL setting cannot be used in the install script: it must be a plain http(s)://host[:port][/path] URL.',
      );
    return url;
  }
  const origin = `${request.protocol === 'https' ? 'https' : 'http'}://${request.host}`;
  if (!isScriptSafeUrl(origin))
    throw new HttpError(
      400,
      'The Host of this request is not a plain host name: set the public URL (Settings) or ask with a plain Host.',
    );
  return origin;
}

/** The install script with this server's URL and the agent's SHA-256 and version filled in. */
export function renderInstallScript(bundle: AgentBundle, serverUrl: string): string {
  const values: Record<string, string> = {
    __GATEHOUSE_SERVER_URL__: serverUrl,
    __GATEHOUSE_AGENT_SHA256__: bundle.sha256,
    __GATEHOUSE_AGENT_VERSION__: bundle.version,
  };
  return bundle.template.replace(
    /'(__GATEHOUSE_(?:SERVER_URL|AGENT_SHA256|AGENT_VERSION)__)'/g,
    (_match, name: string) => shellQuote(values[name] ?? ''),
  );
}
