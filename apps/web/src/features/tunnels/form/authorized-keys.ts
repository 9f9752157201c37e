/**
 * The shell line that appends a public key to ~/.ssh/authorized_keys of `login`, run by an
 * administrator of the host. The login is checked by the server (a Unix name), and public keys
 * hold no single quotes, so single quoting is safe.
 */
export function authorizedKeysCommand(login: string, publicKey: string): string {
  const append = `umask 077; mkdir -p ~/.ssh && echo '${publicKey.trim()}' >> ~/.ssh/authorized_keys`;
  return `sudo -H -u ${login} sh -c "${append}"`;
}
