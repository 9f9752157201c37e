import { randomBytes, randomUUID } from 'node:crypto';
import type { Recorder } from '../recordings/recorder.js';
import type { TestServer } from './harness.js';
import { hashToken } from '../modules/auth/tokens.js';

/** One step of a scripted session: output, typed input, a marker (JSON), or a pause in ms. */
export type Step = { o: string } | { i: string } | { m: Record<string, unknown> } | { wait: number };

/** A host sessions are recorded on: its agent and an ssh definition of it. */
export interface TestHost {
  agentId: string;
  hostname: string;
  definitionId: string;
}

/**
 * An agent enrolled straight in the repository (registration is another module's concern) and an
 * ssh definition of it, made by the administrator whose token is given.
 */
export async function enrolHost(server: TestServer, admin: string, hostname: string): Promise<TestHost> {
  const agentId = await server.services.repositories.agents.create({
    hostname,
    os: 1,
    version: '2.0.0',
    credentialHash: hashToken(`gha_${randomBytes(32).toString('base64url')}`),
    config: null,
    registeredWith: randomUUID(),
  });
  const ssh = await server.call<{ definition: { id: string } }>('POST', '/api/tunneldefinition/ssh', {
    token: admin,
    body: { name: `${hostname} shell`, host_id: agentId, ssh_login: 'deploy' },
  });
  if (ssh.status !== 201) throw new Error(`definition not made: ${JSON.stringify(ssh.body)}`);
  return { agentId, hostname, definitionId: ssh.body.definition.id };
}

/**
 * Records a session through the real recorder (RecordingsService.start, Recorder, finish) and
 * answers its id once it has ended; the search index hears of it through the 'ended' event.
 */
export async function recordSession(
  server: TestServer,
  host: TestHost,
  userEmail: string,
  steps: Step[],
): Promise<string> {
  const live = await server.services.recordings.start({
    type: 'ssh',
    agentId: host.agentId,
    hostname: host.hostname,
    userId: null,
    userEmail,
    definitionId: host.definitionId,
    definitionName: `${host.hostname} shell`,
    width: 80,
    height: 24,
  });
  await play(live.recorder, steps);
  await server.services.recordings.finish(live, 'client-closed');
  return live.id;
}

/** Feeds the steps to a recorder. */
export async function play(recorder: Recorder, steps: Step[]): Promise<void> {
  for (const step of steps) {
    if ('o' in step) recorder.output(Buffer.from(step.o));
    else if ('i' in step) recorder.input(Buffer.from(step.i));
    else if ('m' in step) recorder.marker(JSON.stringify(step.m));
    else await new Promise((resolve) => setTimeout(resolve, step.wait));
  }
}
