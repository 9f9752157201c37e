// Kill -9 of the agent and of the server in the middle of an ssh session that prints a numbered,
// time-stamped pulse 20 times a second; what the recording kept is compared with what the client got.
import {
  api,
  castOutput,
  castText,
  eventually,
  lostPulses,
  newRecording,
  pulseCommand,
  recordingEnded,
  recordingIds,
  ssh,
  verify,
} from '../lib/clients.mjs';
import { sleep } from '../lib/processes.mjs';
import { agentListed, restartAgent, sshWorks } from '../lib/stack.mjs';

const secs = (ms) => `${(ms / 1000).toFixed(2)} s`;
const lastLine = (text) => text.trim().split('\n').at(-1)?.trim() ?? '';

/** Starts a pulse session and answers it with its recording id, once output flows. */
async function pulseSession(stack, result) {
  const before = await recordingIds(stack);
  const session = ssh(stack, pulseCommand(600));
  session.id = await newRecording(stack, before);
  if (!session.id) result.failures.push('the session got no recording');
  await eventually(
    async () => session.bytes,
    (b) => b > 0,
    15_000,
  );
  return session;
}

/** The lost output between what the client received and what the recording holds. */
async function lost(stack, session, result) {
  const cast = castOutput(await castText(stack, session.id));
  const loss = lostPulses(session.stdout().toString(), cast);
  result.lost =
    loss.count === 0
      ? `nothing (${loss.received} pulses received, all recorded)`
      : `${loss.count} of ${loss.received} pulses, the last ${loss.seconds.toFixed(2)} s of output`;
  return loss;
}

/** kill -9 of the agent mid-session: the client is told, the recording ends and verifies, the agent returns. */
export async function agentKill(stack, result) {
  const session = await pulseSession(stack, result);
  await sleep(2000);
  const killedAt = Date.now();
  stack.agent.child.kill('SIGKILL');
  const done = await Promise.race([session.done, sleep(30_000).then(() => undefined)]);
  if (!done) {
    result.failures.push('the ssh client was not told within 30 s');
    session.child.kill('SIGKILL');
  } else {
    const reason = lastLine(session.stderr);
    result.happened.push(`ssh client told in ${secs(done.at - killedAt)}: "${reason || '(nothing)'}"`);
    if (!reason) result.failures.push('the ssh client heard no reason');
  }
  const ended = await recordingEnded(stack, session.id, 30_000);
  if (!ended.ended) result.failures.push('the recording did not end within 30 s');
  const verdict = await verify(stack, session.id);
  result.happened.push(`recording ended ${ended.reason ?? 'never'}, verify: ${verdict.status}`);
  if (!verdict.ok) result.failures.push(`recording verify: ${verdict.status} ${verdict.message}`);
  const restarted = Date.now();
  restartAgent(stack);
  const back = await eventually(
    () => agentListed(stack),
    (c) => c === true,
    30_000,
  );
  result.happened.push(back ? `agent started again, connected in ${secs(Date.now() - restarted)}` : 'agent never back');
  if (!back) result.failures.push('the restarted agent did not connect within 30 s');
  await lost(stack, session, result);
}

/** kill -9 of the server mid-session, then a start on the same data: output lost, recovery, agent status. */
export async function serverKill(stack, result) {
  const session = await pulseSession(stack, result);
  await sleep(3000);
  const killedAt = Date.now();
  await stack.server.kill();
  const done = await Promise.race([session.done, sleep(30_000).then(() => undefined)]);
  if (done) result.happened.push(`ssh client cut in ${secs(done.at - killedAt)}: "${lastLine(session.stderr)}"`);
  else session.child.kill('SIGKILL');
  const restartAt = Date.now();
  await stack.server.start();
  const servingAt = Date.now();
  result.happened.push(`serving again in ${secs(servingAt - restartAt)}`);
  // Honest status: the API must not list the agent connected before the agent is.
  let listedAt = 0;
  const connected = await eventually(
    async () => {
      const listed = await agentListed(stack);
      if (listed && !listedAt) listedAt = Date.now();
      return listed && stack.agent.connectedAt > killedAt;
    },
    (c) => c === true,
    60_000,
  );
  if (!connected) result.failures.push('the agent did not reconnect within 60 s');
  else {
    const early = stack.agent.connectedAt - listedAt;
    result.happened.push(`agent reconnected ${secs(stack.agent.connectedAt - servingAt)} after the server was back`);
    if (early > 1000) result.failures.push(`the agent was listed connected ${secs(early)} before it was`);
    if (stack.agent.connectedAt - servingAt > 10_000)
      result.failures.push('the agent took more than 10 s to reconnect once the server was back');
  }
  const ended = await recordingEnded(stack, session.id, 90_000);
  result.happened.push(
    ended.ended
      ? `recording ${ended.reason} ${secs(Date.now() - servingAt)} after the restart`
      : 'recording still live',
  );
  if (!ended.ended) result.failures.push('the interrupted recording was still live 90 s after the restart');
  const verdict = await verify(stack, session.id);
  result.happened.push(`verify: ${verdict.status}`);
  if (!verdict.ok) result.failures.push(`recording verify: ${verdict.status} ${verdict.message}`);
  const loss = await lost(stack, session, result);
  if (loss.seconds > 1) result.failures.push(`lost ${loss.seconds.toFixed(2)} s of output (goal: at most 1 s)`);
  const after = await sshWorks(stack);
  if (!after.ok) result.failures.push(`a new ssh session after the restart failed: ${after.detail}`);
  const health = await api(stack.server.url, 'GET', '/api/health');
  if (health.status !== 200) result.failures.push(`/api/health answered ${health.status} after the restart`);
}
