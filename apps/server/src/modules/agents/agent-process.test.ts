import fs from 'node:fs';
import { STREAM_WINDOW_OFFERED } from '@gatehouse/contracts';
import net from 'node:net';
import path from 'node:path';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentProcess, eventually, startAgent } from '../../test/agent-process.js';
import { DATABASES, type TestServer, startTestServer } from '../../test/harness.js';

type AgentList = {
  agents: {
    id: string;
    hostname: string;
    os: number;
    version: string;
    connected: boolean;
    config: { whitelist: number[] };
  }[];
};

// Real gatehouse-agent processes (the built CLI) against a real server over HTTP and WebSocket.
describe.each(DATABASES)('agents as real processes on %s', (kind) => {
  let server: TestServer;
  let admin: string;
  let key: string;
  const agents: AgentProcess[] = [];
  const echo = net.createServer((socket) => socket.pipe(socket));
  let echoPort = 0;

  const list = async () => (await server.call<AgentList>('GET', '/api/agent', { token: admin })).body.agents;
  const find = async (hostname: string) => (await list()).find((a) => a.hostname === hostname);

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login();
    key = (
      await server.call<{ key: string }>('POST', '/api/apikey', { token: admin, body: { description: 'test fleet' } })
    ).body.key;
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoPort = (echo.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    for (const a of agents) a.child.kill('SIGKILL');
    echo.close();
    await server.stop();
  });

  it('refuses a wrong key with a clear message and a non-zero exit', async () => {
    const agent = startAgent({ server: server.url, key: 'ghk_wrong', hostname: 'bad-01' });
    expect(await agent.exited).toBe(2);
    expect(agent.output()).toMatch(/registration key is not valid/);
    expect(await find('bad-01')).toBeUndefined();
  });

  it('registers once, keeps its identity owner-only, and shows connected with what it reports', async () => {
    const sockets = connectSocket(server.url, { auth: { token: admin }, transports: ['websocket'] });
    const announced = new Promise<{ id: string }>((resolve) => sockets.on('agents_changed', resolve));
    const agent = startAgent({ server: server.url, key, hostname: 'web-01' });
    agents.push(agent);
    const shown = await eventually(
      () => find('web-01'),
      (a) => a?.connected === true,
    );
    expect(shown).toMatchObject({ os: 1, version: '2.0.0', config: { whitelist: [] } });
    expect((await announced).id).toBe(shown?.id);
    sockets.close();
    const audit = await eventually(
      async () =>
        (
          await server.call<{ entries: { action: string; actor: string; target: string }[] }>(
            'GET',
            '/api/audit?action=agent.connected',
            { token: admin },
          )
        ).body.entries,
      (entries) => entries.length > 0,
    );
    expect(audit[0]).toMatchObject({ action: 'agent.connected', actor: 'agent:web-01', target: shown?.id });
    const identity = path.join(agent.stateDir, 'identity.json');
    expect(fs.statSync(identity).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(identity, 'utf8'))).toMatchObject({ id: shown?.id, server: server.url });
  });

  it('applies a config change live and records it in its state folder', async () => {
    const agent = agents[0]!;
    const id = (await find('web-01'))!.id;
    const res = await server.call<{ applied: boolean; message: string }>('POST', `/api/agent/${id}/config`, {
      token: admin,
      body: { loglevel: 'DEBUG', whitelist: [echoPort], recording_bitrate: '3000k' },
    });
    expect(res.body).toMatchObject({ applied: true, message: 'Configuration saved.' });
    const applied = await eventually(
      async () =>
        JSON.parse(fs.readFileSync(path.join(agent.stateDir, 'config.json'), 'utf8')) as {
          loglevel: string;
          whitelist: number[];
        },
      (c) => c.loglevel === 'DEBUG',
      5000,
    );
    expect(applied.whitelist).toEqual([echoPort]);
  });

  it('relays a stream to a whitelisted port with every byte intact, and refuses other ports with a reason', async () => {
    const id = (await find('web-01'))!.id;
    const stream = await server.services.hub.openStream(id, echoPort);
    // The agent named its window when it opened the stream, so bulk output is sent with the larger one.
    expect((stream as unknown as { window: number }).window).toBe(STREAM_WINDOW_OFFERED);
    const payload = Buffer.alloc(3 * 1024 * 1024, 0);
    for (let i = 0; i < payload.length; i += 1) payload[i] = (i * 31) % 251;
    const received: Buffer[] = [];
    let length = 0;
    const done = new Promise<void>((resolve) =>
      stream.on('data', (chunk: Buffer) => {
        received.push(chunk);
        length += chunk.length;
        if (length >= payload.length) resolve();
      }),
    );
    stream.end(payload);
    await done;
    expect(Buffer.concat(received).equals(payload)).toBe(true);
    await expect(server.services.hub.openStream(id, 1)).rejects.toThrow(/Port 1 is not in the whitelist of web-01/);
    const closedPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (probe.address() as net.AddressInfo).port;
        probe.close(() => resolve(port));
      });
    });
    await server.call('POST', `/api/agent/${id}/config`, { token: admin, body: { whitelist: [echoPort, closedPort] } });
    await new Promise((r) => setTimeout(r, 300));
    await expect(server.services.hub.openStream(id, closedPort)).rejects.toThrow(
      /Nothing accepts connections on 127\.0\.0\.1/,
    );
  });

  it('shows a killed agent disconnected within 15 s, and the restarted one connected with the same identity', async () => {
    const agent = agents.pop()!;
    const id = (await find('web-01'))!.id;
    agent.child.kill('SIGKILL');
    const killedAt = Date.now();
    await eventually(
      () => find('web-01'),
      (a) => a?.connected === false,
      20_000,
    );
    expect(Date.now() - killedAt).toBeLessThanOrEqual(15_000);
    const again = startAgent({ server: server.url, hostname: 'web-01', stateDir: agent.stateDir });
    agents.push(again);
    const back = await eventually(
      () => find('web-01'),
      (a) => a?.connected === true,
    );
    expect(back?.id).toBe(id);
    expect((await list()).filter((a) => a.hostname === 'web-01')).toHaveLength(1);
  }, 40_000);

  it('shows a frozen agent (no FIN, no pongs) disconnected within 15 s, and it reconnects when it thaws', async () => {
    const agent = agents[agents.length - 1]!;
    agent.child.kill('SIGSTOP');
    const frozenAt = Date.now();
    await eventually(
      () => find('web-01'),
      (a) => a?.connected === false,
      20_000,
    );
    expect(Date.now() - frozenAt).toBeLessThanOrEqual(15_000);
    agent.child.kill('SIGCONT');
    await eventually(
      () => find('web-01'),
      (a) => a?.connected === true,
      40_000,
    );
  }, 70_000);

  it('ends a deleted agent for good: it exits with a message and cannot come back', async () => {
    const agent = agents.pop()!;
    const id = (await find('web-01'))!.id;
    const res = await server.call<{ message: string }>('DELETE', `/api/agent/${id}`, { token: admin });
    expect(res.body.message).toBe('Host Deleted');
    expect(await agent.exited).toBe(3);
    expect(agent.output()).toMatch(/no longer accepts this agent’s credential/);
    const retry = startAgent({ server: server.url, hostname: 'web-01', stateDir: agent.stateDir });
    expect(await retry.exited).toBe(3);
    expect(await find('web-01')).toBeUndefined();
  }, 40_000);
});
