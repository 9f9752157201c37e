import path from 'node:path/posix';
import type { ScpCommand } from './scp-command.js';
import { type Step, StepReader, Unparsable } from './step-reader.js';
import { FileDigest, type TransferSink, clean } from './transfer-event.js';

/** Control lines (C, D, E, T, and error messages) at most this long. */
const MAX_LINE = 8192;
/** Directory depth followed at most. */
const MAX_DEPTH = 256;

/** A file the sender announced. */
interface ScpFile {
  path: string;
  size: number;
  digest: FileDigest;
  note?: string;
  /** The sender's own error after the data (it could not read its file). */
  error?: string;
}

/** What the receiver's next acknowledgement answers. */
type Expect = { kind: 'start' | 'dir' | 'end' | 'time' } | { kind: 'header' | 'final'; file: ScpFile };

/**
 * Watches the legacy scp protocol (rcp's: control lines C, D, E, T, file bytes, and one-byte
 * acknowledgements) on an exec of `scp -t` or `scp -f`, and reports one upload or download event
 * per file with its path, bytes, SHA-256 and outcome. The file bytes are counted and hashed as
 * they pass, never held. On anything else it reports one 'unparsable' event and stops.
 */
export class ScpObserver {
  private readonly sender: StepReader;
  private readonly receiver: StepReader;
  private readonly expects: Expect[] = [{ kind: 'start' }];
  private readonly dirs: string[] = [];
  /** The file whose header the receiver accepted and whose bytes come next. */
  private accepted: ScpFile | undefined;
  private inFlight: ScpFile | undefined;
  private readonly budget = { bytes: 0, pieces: 0 };
  private done = false;
  /** True once the stream stopped parsing as scp. */
  unparsable = false;

  constructor(
    private readonly command: ScpCommand,
    private readonly report: TransferSink,
  ) {
    this.sender = new StepReader(this.control(), (why) => this.fail(why));
    this.receiver = new StepReader(this.ack(), (why) => this.fail(why));
  }

  /** Bytes the client sent. */
  fromClient(data: Buffer): void {
    (this.command.direction === 'upload' ? this.sender : this.receiver).push(data);
  }

  /** Bytes the host sent (its stdout). */
  fromHost(data: Buffer): void {
    (this.command.direction === 'upload' ? this.receiver : this.sender).push(data);
  }

  /** The channel closed: a file part way through is reported as interrupted. */
  end(why = 'the channel closed'): void {
    if (this.done) return;
    this.done = true;
    this.sender.stop();
    this.receiver.stop();
    const file = this.inFlight;
    if (file) this.fileEvent(file, `interrupted: ${why} after ${file.digest.bytes} of ${file.size} bytes`);
    this.inFlight = undefined;
  }

  private fail(why: string): void {
    if (this.done) return;
    this.end('the observer stopped');
    this.unparsable = true;
    this.report({
      protocol: 'scp',
      op: 'unparsable',
      path: '',
      direction: null,
      bytes: 0,
      sha256: null,
      outcome: clean(why),
      note: 'The gateway stopped observing this scp channel; its bytes kept flowing and are recorded as terminal output from here on.',
    });
  }

  /** The sender's next record: a control line (or, after an accepted header, the file's bytes). */
  private control(): Step {
    return {
      await: () => {
        const file = this.accepted;
        this.accepted = undefined;
        return file ? this.fileBytes(file) : { line: MAX_LINE, then: (line) => this.onLine(line.toString('utf8')) };
      },
    };
  }

  private onLine(line: string): Step {
    const kind = line[0];
    if (kind === 'C') {
      const m = /^C([0-7]{4}) (\d{1,16}) (.+)$/.exec(line);
      const size = m ? Number(m[2]) : NaN;
      if (!m || !Number.isSafeInteger(size)) throw new Unparsable('a malformed scp file header');
      const file: ScpFile = { ...this.resolve(m[3]!), size, digest: new FileDigest(this.budget) };
      this.expects.push({ kind: 'header', file });
    } else if (kind === 'D') {
      const m = /^D([0-7]{4}) \d{1,16} (.+)$/.exec(line);
      if (!m || this.dirs.length >= MAX_DEPTH) throw new Unparsable('a malformed scp directory header');
      this.dirs.push(m[2]!);
      this.expects.push({ kind: 'dir' });
    } else if (kind === 'E' && line === 'E') {
      if (this.dirs.pop() === undefined) throw new Unparsable('scp left a directory it never entered');
      this.expects.push({ kind: 'end' });
    } else if (kind === 'T') {
      if (!/^T\d{1,20} \d{1,9} \d{1,20} \d{1,9}$/.test(line)) throw new Unparsable('a malformed scp times line');
      this.expects.push({ kind: 'time' });
    } else if (kind === '\x01' || kind === '\x02') {
      // The sender could not send something (scp -f of a missing file): on the record as such.
      this.report({
        protocol: 'scp',
        op: this.command.direction,
        path: clean(this.command.paths.join(' ')),
        direction: this.command.direction,
        bytes: 0,
        sha256: null,
        outcome: clean(line.slice(1)),
        note: 'The sending side reported an error instead of a file.',
      });
    } else throw new Unparsable('an scp control line of an unknown kind');
    return this.control();
  }

  /** The file's bytes, hashed as they pass; then the sender's one-byte status. */
  private fileBytes(file: ScpFile): Step {
    this.inFlight = file;
    let at = 0;
    return {
      stream: file.size,
      to: (piece) => {
        file.digest.add(at, piece);
        at += piece.length;
      },
      then: (): Step => ({
        take: 1,
        then: (status: Buffer): Step => {
          const after = () => {
            this.expects.push({ kind: 'final', file });
            return this.control();
          };
          if (status[0] === 0) return after();
          if (status[0] !== 1 && status[0] !== 2) throw new Unparsable('no status after an scp file');
          return {
            line: MAX_LINE,
            then: (message: Buffer) => {
              file.error = clean(message.toString('utf8'));
              return after();
            },
          };
        },
      }),
    };
  }

  /** The receiver's acknowledgements: 0 is ok, 1 or 2 carry a message line. */
  private ack(): Step {
    return {
      take: 1,
      then: (b) => {
        if (b[0] === 0) {
          this.acknowledged('ok');
          return this.ack();
        }
        if (b[0] !== 1 && b[0] !== 2) throw new Unparsable('an scp acknowledgement of an unknown kind');
        return {
          line: MAX_LINE,
          then: (message) => {
            this.acknowledged(clean(message.toString('utf8')) || 'error');
            return this.ack();
          },
        };
      },
    };
  }

  private acknowledged(outcome: string): void {
    const e = this.expects.shift();
    if (!e) {
      if (outcome === 'ok') throw new Unparsable('an scp acknowledgement nothing asked for');
      return; // a fatal error the receiver sent on its own; the sender stops
    }
    if (e.kind === 'header') {
      if (outcome === 'ok') {
        this.accepted = e.file;
        return;
      }
      this.fileEvent(e.file, outcome, 'The receiving side refused the file before any byte passed.');
    } else if (e.kind === 'final') {
      this.inFlight = undefined;
      this.fileEvent(e.file, e.file.error ?? outcome);
    }
  }

  private fileEvent(file: ScpFile, outcome: string, why?: string): void {
    const complete = file.digest.bytes === file.size;
    const { sha256, note } = file.digest.result();
    const short = complete ? undefined : `${file.digest.bytes} of the ${file.size} bytes announced passed`;
    this.report({
      protocol: 'scp',
      op: this.command.direction,
      path: clean(file.path),
      direction: this.command.direction,
      bytes: file.digest.bytes,
      sha256: complete && !why ? sha256 : null,
      outcome,
      ...((why ?? short ?? note ?? file.note) ? { note: why ?? short ?? note ?? file.note } : {}),
    });
  }

  /** Where a file named in a C line lands (upload) or comes from (download). */
  private resolve(name: string): { path: string; note?: string } {
    const { direction, paths, intoDirectory } = this.command;
    if (direction === 'upload') {
      const target = paths[0]!;
      if (intoDirectory || this.dirs.length > 0 || target.endsWith('/'))
        return { path: path.join(target, ...this.dirs, name) };
      if (path.basename(target) === name) return { path: target };
      return {
        path: target,
        note: `Sent as ${name}: when ${target} is a directory on the host, the file is ${path.join(target, name)}.`,
      };
    }
    const top = this.dirs[0] ?? name;
    const source = paths.find((p) => path.basename(p) === top) ?? paths[0]!;
    return { path: path.join(path.dirname(source), ...this.dirs, name) };
  }
}
