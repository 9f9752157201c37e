import { describe, expect, it } from 'vitest';
import { agentCommand } from './agent-command';

describe('agentCommand', () => {
  it('names the server, the key and the state folder', () => {
    expect(agentCommand('https://gate.example.com', 'ghk_abc')).toBe(
      'npx gatehouse-agent --server https://gate.example.com --key ghk_abc --state-dir /var/lib/gatehouse-agent',
    );
  });

  it('drops a trailing slash from the origin', () => {
    expect(agentCommand('http://127.0.0.1:18483/', 'k')).toContain('--server http://127.0.0.1:18483 --key k');
  });
});
