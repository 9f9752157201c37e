import { describe, expect, it } from 'vitest';
import { KEY_PLACEHOLDER, agentCommand, agentEnvironment, installCommand } from './agent-command';

describe('agent command', () => {
  it('names the server, the key and the state folder', () => {
    expect(agentCommand('https://gate.example.com', 'ghk_abc')).toBe(
      'npx gatehouse-agent --server https://gate.example.com --key ghk_abc --state-dir /var/lib/gatehouse-agent',
    );
  });

  it('drops a trailing slash from the origin and can stand in for the key', () => {
    expect(agentCommand('http://127.0.0.1:18484/', KEY_PLACEHOLDER)).toBe(
      'npx gatehouse-agent --server http://127.0.0.1:18484 --key <REGISTRATION_KEY> --state-dir /var/lib/gatehouse-agent',
    );
  });

  it('gives the same settings as environment variables', () => {
    expect(agentEnvironment('https://gate.example.com', 'ghk_abc').split('\n')).toEqual([
      'export GATEHOUSE_SERVER=https://gate.example.com',
      'export GATEHOUSE_REGISTRATION_KEY=ghk_abc',
      'export GATEHOUSE_AGENT_STATE_DIR=/var/lib/gatehouse-agent',
      'npx gatehouse-agent',
    ]);
  });

  it('gives the one-line install from this server', () => {
    expect(installCommand('https://gate.example.com/', 'ghk_abc')).toBe(
      'curl -fsSL https://gate.example.com/api/agent/install.sh | sudo sh -s -- --key ghk_abc',
    );
  });
});
