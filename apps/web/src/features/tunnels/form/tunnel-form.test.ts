import { describe, expect, it } from 'vitest';
import type { TunnelItem } from '../api/list-tunnels';
import { emptyForm, formFrom, toBody, validateTunnelForm, withType } from './tunnel-form';

const HOST = '6f1c1f3e-8d7e-4c5b-9a51-1d2f3e4a5b6c';
const stored: TunnelItem = {
  id: 'a1b2c3d4-0000-4000-8000-000000000001',
  type: 'ssh',
  name: 'web-01 ssh',
  host: { id: HOST, hostname: 'web-01' },
  port: 2222,
  users: [],
  group: 'ops',
  agents: [],
  ssh_login: 'deploy',
  ssh_auth: 'password',
  public_key: null,
  allow_port_forwarding: false,
  created_at: '2026-01-01T00:00:00.000Z',
};

describe('tunnel form', () => {
  it('defaults the port to 22 for ssh and 3389 for rdp, and clears it for generic', () => {
    const ssh = emptyForm();
    expect(ssh.port).toBe('22');
    expect(withType(ssh, 'rdp').port).toBe('3389');
    expect(withType(withType(ssh, 'rdp'), 'generic').port).toBe('');
    expect(withType({ ...ssh, port: '2200' }, 'rdp').port).toBe('2200');
  });

  it('needs a port for generic and agent tunnels', () => {
    const form = { ...emptyForm('generic'), name: 'db', hostId: HOST };
    expect(validateTunnelForm(form, null)).toEqual({ port: { key: 'tunnels.form.errors.portRequired' } });
    expect(validateTunnelForm({ ...form, port: '70000' }, null).port?.key).toBe('tunnels.form.errors.port');
    expect(validateTunnelForm({ ...form, port: '5432' }, null)).toEqual({});
  });

  it('needs a name, a host and, for ssh, a valid login', () => {
    expect(Object.keys(validateTunnelForm(emptyForm(), null)).sort()).toEqual(['hostId', 'name', 'sshLogin']);
    const form = { ...emptyForm(), name: 'x', hostId: HOST, sshLogin: 'bad login' };
    expect(validateTunnelForm(form, null).sshLogin?.key).toBe('tunnels.form.errors.login');
  });

  it('needs a password for password auth, except on edit where blank keeps it', () => {
    const form = { ...emptyForm(), name: 'x', hostId: HOST, sshLogin: 'deploy', sshAuth: 'password' as const };
    expect(validateTunnelForm(form, null).password?.key).toBe('tunnels.form.errors.password');
    expect(validateTunnelForm(formFrom(stored), stored)).toEqual({});
    expect(validateTunnelForm(form, { ...stored, ssh_auth: 'key' }).password).toBeDefined();
  });

  it('sends ssh fields, the group as null for none, and the password only when typed', () => {
    const form = { ...emptyForm(), name: ' web ', hostId: HOST, sshLogin: 'deploy' };
    expect(toBody(form, true)).toEqual({
      name: 'web',
      host_id: HOST,
      port: 22,
      group: null,
      ssh_login: 'deploy',
      ssh_auth: 'key',
      allow_port_forwarding: false,
    });
    expect(toBody(formFrom(stored), false)).toEqual({
      name: 'web-01 ssh',
      host_id: HOST,
      port: 2222,
      ssh_login: 'deploy',
      ssh_auth: 'password',
      allow_port_forwarding: false,
    });
    // Port forwarding is the definition's own switch: it round-trips through the form.
    expect(toBody(formFrom({ ...stored, allow_port_forwarding: true }), false).allow_port_forwarding).toBe(true);
    expect(toBody({ ...formFrom(stored), password: 's3cret' }, true)).toMatchObject({
      group: 'ops',
      password: 's3cret',
    });
  });

  it('sends no ssh fields for other types; rdp sends its unfilmed-RDP policy (refuse unless chosen) and its clipboard (both unless chosen)', () => {
    const body = toBody({ ...emptyForm('rdp'), name: 'desk', hostId: HOST, sshLogin: 'ignored' }, false);
    expect(body).toEqual({ name: 'desk', host_id: HOST, port: 3389, unfilmed_rdp: 'refuse', rdp_clipboard: 'both' });
    const generic = toBody({ ...emptyForm('generic'), name: 'web', hostId: HOST, port: '80' }, false);
    expect(generic).toEqual({ name: 'web', host_id: HOST, port: 80 });
  });
});
