import type { AccessCommands, AccessKind } from '@gatehouse/contracts';
import type { GatewayAddress } from './gateway-address.js';

/** A word a POSIX shell reads as it is; anything else goes between single quotes. */
export function shellWord(value: string): string {
  return /^[A-Za-z0-9@%+=:,./_-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** A value ssh_config reads as one word (double quotes around anything with a space or quote). */
function configWord(value: string): string {
  return /^[A-Za-z0-9@%+=:,./_-]+$/.test(value) ? value : `"${value.replaceAll('"', '')}"`;
}

/** An ssh_config alias from a host name: letters, digits, dot, dash and underscore only. */
function aliasOf(hostname: string): string {
  return `gatehouse-${hostname.replace(/[^A-Za-z0-9._-]+/g, '-').toLowerCase()}`;
}

/** What one entry's commands are built from. */
export interface CommandInput {
  kind: AccessKind;
  /** The caller's email: the gateway's login is `email@host`. */
  email: string;
  hostname: string;
  definitionId: string;
  definitionName: string;
  gateway: GatewayAddress;
  /** The console's URL (for `gatehouse tunnel --server`). */
  serverUrl: string;
}

/**
 * Copy-ready commands for one entry. ssh definitions: ssh, scp and sftp with the gateway's login
 * `email@host` (OpenSSH splits user and host at the last @, as the gateway does) and a Host entry
 * for ~/.ssh/config; rdp and generic: `npx gatehouse tunnel`, which asks for the password; rdp: the
 * browser desktop too. Every value from the database is shell-quoted where a shell could read it.
 */
export function accessCommands(input: CommandInput): AccessCommands {
  const { gateway } = input;
  if (input.kind === 'ssh') {
    const login = `${input.email}@${input.hostname}`;
    const port = String(gateway.port);
    // scp and sftp read `[v6]:path`; ssh takes the bare address.
    const scpHost = gateway.host.includes(':') ? `[${gateway.host}]` : gateway.host;
    const alias = aliasOf(input.hostname);
    return {
      ssh: `ssh -p ${port} ${shellWord(`${login}@${gateway.host}`)}`,
      scp: `scp -P ${port} FILE ${shellWord(`${login}@${scpHost}:`)}`,
      sftp: `sftp -P ${port} ${shellWord(`${login}@${scpHost}`)}`,
      ssh_config: [
        `Host ${alias}`,
        `    HostName ${gateway.host}`,
        `    Port ${port}`,
        `    User ${configWord(login)}`,
        '',
      ].join('\n'),
      ssh_alias: alias,
    };
  }
  const tunnel = `npx gatehouse tunnel ${shellWord(input.definitionName)} --server ${shellWord(input.serverUrl)} --email ${shellWord(input.email)}`;
  return input.kind === 'rdp' ? { tunnel, desktop_path: `/desktop/${input.definitionId}` } : { tunnel };
}
