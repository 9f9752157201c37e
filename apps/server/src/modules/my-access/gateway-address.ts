/** Where clients reach the SSH gateway and the console, as My access writes them into commands. */
export interface GatewayAddress {
  host: string;
  port: number;
}

/** What the gateway's public address is decided from, most telling first. */
export interface AddressSources {
  /** GATEHOUSE_SSH_PUBLIC_ADDRESS: where an administrator says clients reach the gateway. */
  configured?: { host: string; port: number | undefined } | undefined;
  /** The address the gateway listens on (GATEHOUSE_SSH_HOST, else HOST). */
  listenHost: string;
  /** The port it listens on: the real one, which differs from the setting when that was 0. */
  listenPort: number;
  /** The public URL setting, else GATEHOUSE_PUBLIC_URL. */
  publicUrl: string | undefined;
  /** The host name the caller reached the console at (Host header, without the port). */
  requestHost: string;
}

/** A DNS name, IPv4 or IPv6 address: nothing a shell, ssh_config or a URL would read otherwise. */
const PLAIN_HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|[0-9A-Fa-f:.]{2,45})$/;

/** True for a host name or address that can go into a command as it is. */
export function isPlainHost(host: string): boolean {
  return host.length <= 253 && PLAIN_HOST.test(host);
}

/** Listening on every address says nothing about where clients connect. */
function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]' || host === '';
}

function hostOfUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '') || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The SSH gateway's address for clients: the configured public address, else the address it
 * listens on when that is a specific one, else the public URL's host, else the host the caller
 * reached the console at (the caller's own choice, answered only to them, and only when plain).
 * The port: the configured one, else the one the gateway really listens on, never a default.
 */
export function gatewayAddress(sources: AddressSources): GatewayAddress {
  const port = sources.configured?.port ?? sources.listenPort;
  const candidates = [
    sources.configured?.host,
    isWildcard(sources.listenHost) ? undefined : sources.listenHost.replace(/^\[|\]$/g, ''),
    hostOfUrl(sources.publicUrl),
    sources.requestHost.replace(/^\[|\]$/g, ''),
  ];
  const host = candidates.find((h): h is string => h !== undefined && isPlainHost(h)) ?? 'localhost';
  return { host, port };
}

/** The console's URL for `gatehouse tunnel --server`: the public URL, else the one the caller used. */
export function serverUrl(publicUrl: string | undefined, request: { protocol: string; host: string }): string {
  const configured = publicUrl?.trim().replace(/\/+$/, '');
  if (configured) return configured;
  const host = request.host;
  const name = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return isPlainHost(name) ? `${request.protocol === 'https' ? 'https' : 'http'}://${host}` : 'http://localhost';
}
