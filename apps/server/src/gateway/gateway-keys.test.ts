import ssh2 from 'ssh2';
import { describe, expect, it } from 'vitest';
import { sshKeyPair } from './gateway-keys.js';

describe('SSH key pairs the gateway makes', () => {
  // ssh2's own generator writes, about once in 300 tries, an Ed25519 private key its parser
  // refuses; every pair handed out here must be readable, or a server or definition is unusable.
  it('are always readable by ssh2, with the comment in the public half', () => {
    for (let i = 0; i < 1000; i += 1) {
      const pair = sshKeyPair('gatehouse-test');
      expect(ssh2.utils.parseKey(pair.private)).not.toBeInstanceOf(Error);
      expect(pair.public).toMatch(/^ssh-ed25519 \S+ gatehouse-test$/);
    }
  });
});
