import { describe, expect, it } from 'vitest';
import { DesktopUnreachable, connectionFileText } from './desktop-session.js';

// The username and domain reach FreeRDP in an RDP connection file (desktop-session.ts, startFreeRdp):
// one `name:s:value` line each, and nothing a value holds can start another line.
describe('the desktop’s RDP connection file', () => {
  it('holds the username and the domain, one line each, and never the password', () => {
    expect(connectionFileText({ username: 'alice', password: 'p4ss', domain: 'CORP' })).toBe(
      'username:s:alice\r\ndomain:s:CORP\r\nconnection type:i:6\r\n',
    );
    expect(connectionFileText({ username: 'bob', password: 'p4ss' })).toBe('username:s:bob\r\nconnection type:i:6\r\n');
    expect(connectionFileText({ username: 'bob', password: 'p4ss', domain: '' })).not.toContain('domain');
    expect(connectionFileText({ username: 'bob', password: 'secret-word' })).not.toContain('secret-word');
  });

  it('refuses a value that would add a line (alternate shell, another server) with a clear reason', () => {
    for (const username of ['bob\r\nalternate shell:s:/bin/sh', 'bob\nfull address:s:127.0.0.1', 'a\u0000b']) {
      expect(() => connectionFileText({ username, password: 'x' })).toThrow(DesktopUnreachable);
    }
    expect(() => connectionFileText({ username: 'bob', password: 'x', domain: 'CORP\rx' })).toThrow(
      /domain cannot hold control characters/,
    );
  });
});
