import type { ChannelMarker, SessionKind } from '@gatehouse/contracts';
import type { Recorder } from '../../recordings/recorder.js';
import type { ChannelTap } from '../channel-wiring.js';
import { type ScpCommand, parseScpCommand } from './scp-command.js';
import { ScpObserver } from './scp-observer.js';
import { SftpObserver } from './sftp-observer.js';
import type { TransferEvent } from './transfer-event.js';

/** What one channel of a session is: its kind, an exec's command, and legacy scp's reading of it. */
export interface ChannelKind {
  kind: SessionKind;
  command?: string;
  scp?: ScpCommand;
}

/** An exec's kind: the remote end of legacy scp (`scp -t` / `scp -f`), or any other command. */
export function execKind(command: string): ChannelKind {
  const scp = parseScpCommand(command);
  return scp ? { kind: 'scp', command, scp } : { kind: 'exec', command };
}

/** The marker opening a channel in the recording. */
export function channelMarker(channel: ChannelKind): string {
  const marker: ChannelMarker = {
    type: 'channel',
    kind: channel.kind,
    ...(channel.command === undefined ? {} : { command: channel.command }),
  };
  return JSON.stringify(marker);
}

/**
 * The observer of a file-transfer channel (sftp, or legacy scp), reporting each event into the
 * recording as a marker (the record, inside the chain) and then to `saved` with the marker's time.
 * Undefined for shells and other execs.
 */
export function transferTap(
  channel: ChannelKind,
  recorder: Recorder | undefined,
  saved: (t: number, event: TransferEvent) => void,
): ChannelTap | undefined {
  const report = (event: TransferEvent) => {
    const t = recorder?.marker(JSON.stringify({ type: 'file-transfer', ...event })) ?? 0;
    saved(t, event);
  };
  if (channel.kind === 'sftp') {
    const o = new SftpObserver(report);
    return { fromClient: (d) => o.fromClient(d), fromHost: (d) => o.fromHost(d), end: () => o.end() };
  }
  if (channel.scp) {
    const o = new ScpObserver(channel.scp, report);
    // An exec that only looked like scp (another program named scp) is recorded like a terminal
    // once its stream stops parsing: the name of a command must not hide what it printed.
    return {
      fromClient: (d) => o.fromClient(d),
      fromHost: (d) => o.fromHost(d),
      end: () => o.end(),
      get passthrough() {
        return o.unparsable;
      },
    };
  }
  return undefined;
}
