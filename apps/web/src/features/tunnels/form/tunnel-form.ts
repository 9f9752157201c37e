import type { CreateTunnelBody } from '../api/tunnel-mutations';
import type { TunnelItem, TunnelType } from '../api/list-tunnels';

/** How Gatehouse logs in to an ssh host. */
export type SshAuth = 'key' | 'password';

/** The create/edit dialog's fields as typed. */
export interface TunnelForm {
  type: TunnelType;
  name: string;
  hostId: string;
  /** Text until saved; empty takes the server's default for ssh and rdp. */
  port: string;
  /** Group name, or '' for none. */
  group: string;
  sshLogin: string;
  sshAuth: SshAuth;
  /** Write-only; on edit, blank keeps the stored password. */
  password: string;
  /** ssh: users may forward ports (ssh -L) to the host's whitelisted ports, on the record. */
  allowPortForwarding: boolean;
  /** rdp: a session the agent cannot film is refused, or allowed and marked not filmed (issue 18). */
  unfilmedRdp: UnfilmedRdp;
  /** rdp: the browser desktop's clipboard, enforced by the gateway (issue 18). */
  rdpClipboard: RdpClipboard;
}

/** What an rdp definition does with sessions that cannot be filmed. */
export type UnfilmedRdp = 'refuse' | 'allow';

/** The browser desktop's clipboard policy of an rdp definition. */
export type RdpClipboard = 'both' | 'to-desktop' | 'from-desktop' | 'off';
/** The choices in the order the form shows them. */
export const RDP_CLIPBOARD_CHOICES: readonly RdpClipboard[] = ['both', 'to-desktop', 'from-desktop', 'off'];

/** A message id with its values. */
export interface FieldError {
  key: string;
  values?: Record<string, string | number>;
}

/** Fields that can be wrong. */
export type TunnelField = 'name' | 'hostId' | 'port' | 'sshLogin' | 'password';
/** Messages of the wrong fields. */
export type TunnelErrors = Partial<Record<TunnelField, FieldError>>;

/** Default ports the server applies (ssh 22, rdp 3389); generic and agent need one. */
export const DEFAULT_PORTS: Record<TunnelType, string> = { ssh: '22', rdp: '3389', generic: '', agent: '' };
const LOGIN = /^[a-z_][a-z0-9_.-]*\$?$/i;

/** A new definition's form. */
export function emptyForm(type: TunnelType = 'ssh'): TunnelForm {
  return {
    type,
    name: '',
    hostId: '',
    port: DEFAULT_PORTS[type],
    group: '',
    sshLogin: '',
    sshAuth: 'key',
    password: '',
    allowPortForwarding: false,
    unfilmedRdp: 'refuse',
    rdpClipboard: 'both',
  };
}

/** The form for an existing definition (its password is never answered). */
export function formFrom(item: TunnelItem): TunnelForm {
  return {
    type: item.type,
    name: item.name,
    hostId: item.host.id,
    port: String(item.port),
    group: item.group ?? '',
    sshLogin: item.ssh_login ?? '',
    sshAuth: item.ssh_auth ?? 'key',
    password: '',
    allowPortForwarding: item.allow_port_forwarding,
    unfilmedRdp: item.unfilmed_rdp ?? 'refuse',
    rdpClipboard: item.rdp_clipboard ?? 'both',
  };
}

/** Switches the type; a port left at the old type's default follows to the new one's. */
export function withType(form: TunnelForm, type: TunnelType): TunnelForm {
  const untouched = form.port.trim() === '' || form.port === DEFAULT_PORTS[form.type];
  return { ...form, type, port: untouched ? DEFAULT_PORTS[type] : form.port };
}

/** Checks the fields as the server would; `editing` is the definition being changed, if any. */
export function validateTunnelForm(form: TunnelForm, editing: TunnelItem | null): TunnelErrors {
  const errors: TunnelErrors = {};
  if (form.name.trim() === '') errors.name = { key: 'tunnels.form.errors.name' };
  if (form.hostId === '') errors.hostId = { key: 'tunnels.form.errors.host' };
  const port = form.port.trim();
  if (port === '') {
    if (DEFAULT_PORTS[form.type] === '') errors.port = { key: 'tunnels.form.errors.portRequired' };
  } else if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
    errors.port = { key: 'tunnels.form.errors.port' };
  }
  if (form.type !== 'ssh') return errors;
  const login = form.sshLogin.trim();
  if (login === '') errors.sshLogin = { key: 'tunnels.form.errors.loginRequired' };
  else if (login.length > 32 || !LOGIN.test(login)) errors.sshLogin = { key: 'tunnels.form.errors.login' };
  const keepsPassword = editing?.ssh_auth === 'password';
  if (form.sshAuth === 'password' && form.password === '' && !keepsPassword)
    errors.password = { key: 'tunnels.form.errors.password' };
  return errors;
}

/**
 * The body to send; call only when nothing is wrong. `withGroup` is false for users without
 * list-group, who cannot see groups: the group is then left as it is.
 */
export function toBody(form: TunnelForm, withGroup: boolean): CreateTunnelBody {
  const port = form.port.trim();
  const body: CreateTunnelBody = { name: form.name.trim(), host_id: form.hostId };
  if (port !== '') body.port = Number(port);
  if (withGroup) body.group = form.group === '' ? null : form.group;
  if (form.type === 'rdp') {
    body.unfilmed_rdp = form.unfilmedRdp;
    body.rdp_clipboard = form.rdpClipboard;
  }
  if (form.type === 'ssh') {
    body.ssh_login = form.sshLogin.trim();
    body.ssh_auth = form.sshAuth;
    if (form.sshAuth === 'password' && form.password !== '') body.password = form.password;
    body.allow_port_forwarding = form.allowPortForwarding;
  }
  return body;
}
