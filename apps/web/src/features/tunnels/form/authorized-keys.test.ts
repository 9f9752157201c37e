import { describe, expect, it } from 'vitest';
import { authorizedKeysCommand } from './authorized-keys';

describe('authorizedKeysCommand', () => {
  it('appends the key to the login’s authorized_keys, creating ~/.ssh owner-only', () => {
    expect(authorizedKeysCommand('deploy', 'ssh-ed25519 AAAAC3Nza gatehouse-deploy\n')).toBe(
      `sudo -H -u deploy sh -c "umask 077; mkdir -p ~/.ssh && echo 'ssh-ed25519 AAAAC3Nza gatehouse-deploy' >> ~/.ssh/authorized_keys"`,
    );
  });
});
