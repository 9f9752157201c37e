import type { FastifyBaseLogger } from 'fastify';
import type ssh2 from 'ssh2';
import type { Socket } from 'node:net';
import type { PseudoTtyInfo, ServerChannel } from 'ssh2';
import type { LiveRecording } from '../recordings/recordings.service.js';
import type { TunnelWithMembers } from '../modules/tunnels/tunnels.repository.js';
import type { UserRow } from '../modules/users/users.repository.js';
import type { Services } from '../services.js';
import { detach } from '../lib/detach.js';
import { REVOKED_ACTION } from '../realtime/live-rights.js';
import { wireChannel } from './channel-wiring.js';
import { DISCONNECT, disconnect } from './ssh-disconnect.js';
import type { IdleCandidate } from './idle-sweep.js';
import { ForwardedChannel, forwardDestinationProblem, forwardTarget } from './port-forward.js';
import { type ChannelKind, channelMarker, execKind, transferTap } from './transfers/channel-kind.js';
import { TransferLog } from './transfers/transfer-log.js';
import { UpstreamError, connectUpstream } from './upstream.js';

type Pty = Pick<PseudoTtyInfo, 'cols' | 'rows' | 'width' | 'height' | 'modes'> & { term: string };

/**
 * One client connection through the gateway: the definition that admits the user, one onward SSH
 * connection to the host, one recording for the whole connection, every channel wired through.
 */
export class GatewayConnection implements IdleCandidate {
  /** Date.now() of the last byte either way, for the idle timeout. */
  lastActivity = Date.now();
  private readonly touch = () => {
    this.lastActivity = Date.now();
  };
  private user: UserRow | undefined;
  private host = '';
  private definition: TunnelWithMembers | undefined;
  private upstream: Promise<ssh2.Client> | undefined;
  private recording: Promise<LiveRecording> | undefined;
  /** The connection's file_transfers rows on their way to the database. */
  private transferLog: TransferLog | undefined;
  private readonly channels = new Set<ServerChannel>();
  private ending: Promise<void> | undefined;
  private clientClosed: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: ssh2.Connection,
    private readonly source: string,
    private readonly s: Services,
    private readonly log: FastifyBaseLogger,
    /** Told the idle timeout each time a session reads the settings. */
    private readonly idleMinutesRead: (minutes: number) => void = () => undefined,
  ) {
    client.on('close', () => detach(this.log, 'ending the gateway connection', this.end(undefined, 'client-closed')));
  }

  /** No byte either way for the idle timeout: the session ends, and the user is told why. */
  endIdle(minutes: number): void {
    const span = minutes === 1 ? 'a minute' : `${minutes} minutes`;
    detach(
      this.log,
      'ending an idle session',
      this.end(`This session was idle for ${span} and has been closed.`, 'idle'),
    );
  }

  /** The user proved who they are; `host` is the part after the last @ of the login. */
  authenticated(user: UserRow, host: string, _method: string): void {
    this.user = user;
    this.host = host;
  }

  /** Authentication finished: find the definition, then take sessions. */
  ready(): void {
    const definitionFound = this.findDefinition();
    this.client.on('session', (accept) => {
      const session = accept();
      let pty: Pty | undefined;
      session.on('pty', (ok, _no, info) => {
        pty = {
          cols: info.cols,
          rows: info.rows,
          width: info.width,
          height: info.height,
          modes: info.modes,
          term: info.term,
        };
        ok?.();
      });
      session.on('window-change', (ok, _no, info) => {
        if (pty) Object.assign(pty, { cols: info.cols, rows: info.rows, width: info.width, height: info.height });
        for (const ch of this.upstreamChannels) ch.setWindow(info.rows, info.cols, info.height, info.width);
        if (this.recording)
          detach(
            this.log,
            'recording a resize',
            this.recording.then((r) => r.recorder.resize(info.cols, info.rows)),
          );
        ok?.();
      });
      session.on('env', (_ok, no) => no?.());
      session.on('auth-agent', (_ok, no) => no?.());
      session.on('x11', (_ok, no) => no?.());
      session.on('signal', (ok) => ok?.());
      // Channels are accepted at once, before any await: a client that sends EOF right away
      // (piped stdin) would otherwise find the session ending and the request refused.
      session.on('shell', (ok) => {
        const channel = ok();
        this.opening(
          channel,
          definitionFound.then(() =>
            this.open(channel, pty, (up, cb) => up.shell(pty ? toPtyOptions(pty) : false, cb), { kind: 'shell' }),
          ),
        );
      });
      session.on('exec', (ok, _no, info) => {
        const channel = ok();
        this.opening(
          channel,
          definitionFound.then(() =>
            this.open(
              channel,
              pty,
              (up, cb) => up.exec(info.command, pty ? { pty: toPtyOptions(pty) } : {}, cb),
              execKind(info.command),
            ),
          ),
        );
      });
      session.on('subsystem', (ok, no, info) => {
        if (info.name !== 'sftp') return no?.();
        const channel = ok();
        this.opening(
          channel,
          definitionFound.then(() =>
            this.open(channel, undefined, (up, cb) => up.subsys('sftp', cb), { kind: 'sftp' }),
          ),
        );
      });
    });
    // ssh -L: each forwarded channel is decided, opened and recorded on its own (forward()).
    this.client.on('tcpip', (ok, no, info) => {
      detach(
        this.log,
        'gateway forward',
        definitionFound.then(() => this.forward(ok, no, info)),
        () => no(),
      );
    });
    this.client.on('request', (ok, no) => no?.());
  }

  private readonly upstreamChannels = new Set<ssh2.ClientChannel>();
  /** The connection's forwarded channels (ssh -L) while they are open. */
  private readonly forwards = new Set<ForwardedChannel>();
  private forwardCount = 0;

  /**
   * One `ssh -L` channel. Allowed only when the policy admits the user for 'forward' (a definition
   * for this host that admits them allows port forwarding), only to the host itself (127.0.0.1,
   * localhost or its name) and only to a port its agent whitelists: the bytes go through the
   * agent to 127.0.0.1:port on the host, never through sshd. A refusal reaches the client as
   * "open failed" and is audited; an opened forward is audited and written into the recording.
   */
  private async forward(
    accept: () => ServerChannel | undefined,
    reject: () => void,
    info: ssh2.TcpipRequestInfo,
  ): Promise<void> {
    const user = this.user;
    const asked = `${info.destIP}:${info.destPort}`;
    const audit = (outcome: 'success' | 'denied' | 'failure', detail: Record<string, unknown>, target?: string) =>
      this.s.repositories.audit.append({
        actorId: user?.id ?? null,
        actor: user?.email ?? null,
        action: outcome === 'success' ? 'gateway.forward.open' : 'gateway.forward.refused',
        target: target ?? `${this.host}:${info.destPort}`,
        outcome,
        source: this.source,
        detail: { host: this.host, destination: asked, ...detail },
      });
    if (!user || this.ending) return reject();
    // The policy audits its own denials (no definition, or none that allows forwarding).
    const definition = await this.s.policy.admit(user, this.host, 'forward', { source: this.source });
    if (!definition) return reject();
    const problem = forwardDestinationProblem(info.destIP, definition.hostname);
    if (problem) {
      reject();
      await audit('denied', { reason: problem });
      return;
    }
    const target = forwardTarget(definition.hostname, info.destPort);
    let stream;
    try {
      // The hub refuses a port outside the host's whitelist (and the agent checks it again).
      stream = await this.s.hub.openStream(definition.agentId, info.destPort);
    } catch (error) {
      reject();
      await audit('denied', { reason: (error as Error).message }, target);
      return;
    }
    let recording: LiveRecording | undefined;
    try {
      let settings;
      [recording, settings] = await Promise.all([
        this.startRecording(undefined, definition, { kind: 'forward' }),
        this.s.settings.get(),
      ]);
      this.idleMinutesRead(settings.idle_timeout_minutes);
      await this.s.repositories.recordings.addForward(recording.id, target);
      recording.recorder.marker(channelMarker({ kind: 'forward' }));
    } catch (error) {
      stream.destroy();
      throw error;
    }
    const channel = this.ending ? undefined : accept();
    if (!channel) {
      stream.destroy(); // the connection ended (or the client went away) while the forward opened
      return;
    }
    this.forwardCount += 1;
    const forward = new ForwardedChannel(
      channel,
      stream,
      recording.recorder,
      `#${this.forwardCount} to ${target}`,
      this.touch,
      (f) => this.forwards.delete(f),
    );
    this.forwards.add(forward);
    await audit('success', { recording: recording.id }, target);
  }

  private async findDefinition(): Promise<void> {
    const user = this.user;
    if (!user) return;
    this.definition = await this.s.policy.admit(user, this.host, 'shell', { source: this.source });
  }

  private connect(): Promise<ssh2.Client> {
    const definition = this.definition;
    if (!definition) return Promise.reject(new UpstreamError('not admitted'));
    this.upstream ??= connectUpstream(definition, {
      hub: this.s.hub,
      tunnels: this.s.repositories.tunnels,
      box: this.s.box,
    }).then((up) => {
      up.on('close', () =>
        detach(
          this.log,
          'ending a session whose host went away',
          this.end(
            `The connection to ${definition.hostname} was lost (its agent or sshd went away).`,
            'host-disconnected',
          ),
        ),
      );
      return up;
    });
    return this.upstream;
  }

  /**
   * The connection's one recording, started by its first session or forward (under the definition
   * that admitted it); that first channel's kind is the session's.
   */
  private startRecording(
    pty: Pty | undefined,
    definition: TunnelWithMembers | undefined,
    first: ChannelKind,
  ): Promise<LiveRecording> {
    const { user } = this;
    if (!definition || !user) return Promise.reject(new Error('not admitted'));
    this.recording ??= this.s.recordings
      .start({
        type: 'ssh',
        agentId: definition.agentId,
        hostname: definition.hostname,
        userId: user.id,
        userEmail: user.email,
        definitionId: definition.id,
        definitionName: definition.name,
        width: pty?.cols ?? 80,
        height: pty?.rows ?? 24,
        term: pty?.term,
        kind: first.kind,
        command: first.command ?? null,
      })
      .then((live: LiveRecording) => {
        live.terminate = (by: string) =>
          detach(
            this.log,
            'terminating a session',
            this.end(`This session was terminated by ${by}.`, 'terminated', by),
          );
        return live;
      });
    return this.recording;
  }

  /**
   * A channel's opening, run detached: when it fails unexpectedly (the database away while the
   * policy or the recorder is asked), the user is told and the channel closed, never left hanging.
   */
  private opening(channel: ServerChannel | undefined, work: Promise<void>): void {
    detach(this.log, 'opening a gateway session', work, () => {
      if (!channel) return;
      channel.stderr.write('Gatehouse: the session could not start (a server error, logged). Try again.\r\n');
      channel.exit(1);
      channel.end();
    });
  }

  /** Opens one channel on the host and wires it to the client's channel, recording it. */
  private async open(
    channel: ServerChannel | undefined,
    pty: Pty | undefined,
    request: (up: ssh2.Client, cb: (err: Error | undefined, ch: ssh2.ClientChannel) => void) => void,
    kind: ChannelKind,
  ): Promise<void> {
    if (!channel) return; // the client went away before the channel opened
    this.channels.add(channel);
    channel.on('close', () => this.channels.delete(channel));
    if (!this.definition) {
      channel.stderr.write(
        `Gatehouse: ${this.user?.email ?? 'you'} may not open SSH sessions on ${this.host}. Ask an administrator for a tunnel definition.\r\n`,
      );
      channel.exit(1);
      channel.end();
      return;
    }
    try {
      const [up, recording, settings] = await Promise.all([
        this.connect(),
        this.startRecording(pty, this.definition, kind),
        this.s.settings.get(),
      ]);
      this.idleMinutesRead(settings.idle_timeout_minutes);
      // The bench's switch (RecordingsService.recordTerminal) measures the gateway without it.
      const terminal = this.s.recordings.recordTerminal ? recording.recorder : undefined;
      terminal?.marker(channelMarker(kind));
      const what = kind.kind === 'sftp' ? 'sftp' : kind.command;
      if (what) terminal?.output(Buffer.from(`\r\n[gatehouse] ${what}\r\n`));
      // sftp and legacy scp: the file bytes go to an observer, never into the terminal recording.
      const rows = (this.transferLog ??= new TransferLog(this.s.repositories.fileTransfers, recording.id, this.log));
      const tap = transferTap(kind, terminal, (t, event) => rows.add(t, event));
      request(up, (error, upCh) => {
        if (error) {
          channel.stderr.write(`Gatehouse: the host refused the request: ${error.message}\r\n`);
          channel.exit(1);
          channel.end();
          return;
        }
        this.upstreamChannels.add(upCh);
        upCh.on('close', () => this.upstreamChannels.delete(upCh));
        wireChannel(channel, upCh, {
          recorder: terminal,
          tap,
          captureInput: settings.recording_input_capture,
          touch: this.touch,
        });
      });
    } catch (error) {
      const message = error instanceof UpstreamError ? error.message : 'the session could not start';
      this.log.warn({ err: error }, 'gateway session failed');
      channel.stderr.write(`Gatehouse: ${message}\r\n`);
      channel.exit(1);
      channel.end();
    }
  }

  /**
   * Live rights (realtime/live-rights.ts calls this whenever rights change): the connection lives
   * only while its user exists and the definition that admitted it still exists unchanged and still
   * admits them (the policy decides, and audits its denial). Otherwise the user is told on stderr,
   * the session ends with exit TERM like a termination, and the closure is audited.
   */
  async recheckRights(): Promise<void> {
    const { user, definition } = this;
    if (!user || !definition || this.ending) return;
    let why: string | undefined;
    if (!(await this.s.repositories.users.findById(user.id))) {
      why = 'Your Gatehouse account was deleted';
    } else {
      const current = await this.s.repositories.tunnels.find(definition.id);
      const same = current && current.agentId === definition.agentId && current.port === definition.port;
      if (!same || !(await this.s.policy.admit(user, current, 'shell', { source: this.source })))
        why = `Your access to ${this.host} was withdrawn`;
      // Open forwards (ssh -L) live only while a definition still allows forwarding for this user.
      else if (
        this.forwards.size > 0 &&
        !(await this.s.policy.admit(user, this.host, 'forward', { source: this.source }))
      )
        why = `Port forwarding to ${this.host} was withdrawn`;
    }
    if (!why || this.ending) return;
    await this.s.repositories.audit.append({
      actorId: user.id,
      actor: user.email,
      action: REVOKED_ACTION,
      target: this.host,
      outcome: 'denied',
      source: this.source,
      detail: { connection: 'ssh', definition: definition.id, why },
    });
    await this.end(`${why}: this session has been closed.`, 'revoked');
  }

  /** Writes a notice on every open session channel's stderr (the server is draining). */
  tell(text: string): void {
    if (this.ending) return;
    for (const channel of this.channels) channel.stderr.write(`\r\n[Gatehouse] ${text}\r\n`);
  }

  /**
   * Closes the client's connection. With a reason, the client gets time to close it itself, so the
   * reason written to its stderr is printed; one that has not (busy, stopped, a multiplexing client)
   * is disconnected with the reason as the disconnect's text, which OpenSSH prints as "Received
   * disconnect from …: 11: reason". ssh2's own end() sends no text: a client that read that before
   * its stderr lost the reason (issue 20: "Received disconnect … 11:" once in six runs).
   */
  private closeClient(reason: string | undefined): void {
    if (!reason) return void setTimeout(() => this.client.end(), 50);
    const socket = (this.client as unknown as { _sock?: Socket })._sock;
    this.clientClosed = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        if (socket && !socket.destroyed)
          disconnect(this.client, socket, DISCONNECT.BY_APPLICATION, `[Gatehouse] ${reason}`);
        else this.client.end();
        resolve();
      }, CLIENT_CLOSE_GRACE.ms);
      this.client.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Resolves once an ended connection's client has closed, or was disconnected with the reason. */
  get closed(): Promise<void> {
    return this.clientClosed;
  }

  /** Ends the connection, telling the user why, and finalises the recording. */
  async end(reason?: string, endReason = 'server-stopped', terminatedBy?: string): Promise<void> {
    // Every caller gets the same ending: the server's shutdown waits for one that the client's
    // close began, rather than closing the database under it.
    this.ending ??= this.finishEnd(reason, endReason, terminatedBy);
    return this.ending;
  }

  private async finishEnd(reason: string | undefined, endReason: string, terminatedBy?: string): Promise<void> {
    for (const channel of this.channels) {
      if (reason) channel.stderr.write(`\r\n[Gatehouse] ${reason}\r\n`);
      if (reason) channel.exit('TERM', false, reason);
      else channel.exit(0);
      channel.close();
    }
    // Forwarded channels close with the session (and note their totals before the recording ends).
    for (const forward of this.forwards) forward.terminate();
    this.closeClient(reason);
    this.upstream?.then((up) => up.end()).catch(() => undefined); // a host never reached has nothing to end
    const recording = await this.recording?.catch(() => undefined);
    if (!recording) return;
    try {
      await this.s.recordings.finish(recording, endReason, terminatedBy);
      await this.s.repositories.audit.append({
        actorId: this.user?.id ?? null,
        actor: terminatedBy ?? this.user?.email ?? null,
        action: 'gateway.session.end',
        target: recording.id,
        outcome: 'success',
        source: this.source,
        detail: { reason: endReason, host: this.host },
      });
    } catch (error) {
      // The recording stays open in SQL; recovery finalises it from its files.
      this.log.error({ err: error, recording: recording.id }, 'gateway session not finalised');
    }
  }
}

/**
 * How long a client whose session channels were closed with a reason may take to close the
 * connection itself (OpenSSH does once its last channel closes, after writing the reason from its
 * stderr) before the gateway disconnects it with the reason as the disconnect's own text.
 */
export const CLIENT_CLOSE_GRACE = { ms: 1000 };

function toPtyOptions(pty: Pty) {
  return { term: pty.term, cols: pty.cols, rows: pty.rows, width: pty.width, height: pty.height, modes: pty.modes };
}
