import path from 'node:path/posix';

/** An exec that runs the remote end of legacy scp (`scp -O`): who sends, and the paths it names. */
export interface ScpCommand {
  /** upload: `scp -t` (the host receives); download: `scp -f` (the host sends). */
  direction: 'upload' | 'download';
  /** The target (upload) or the sources (download), as the remote shell will see them. */
  paths: string[];
  /** -r or -d: the target is a directory the files go into. */
  intoDirectory: boolean;
}

/** Words of a command line as a POSIX shell splits them (quotes and backslashes; nothing expanded). */
export function shellWords(line: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i]!;
    if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) return undefined;
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (ch === '"') {
      let text = '';
      for (i += 1; i < line.length && line[i] !== '"'; i += 1) {
        if (line[i] === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) i += 1;
        text += line[i];
      }
      if (i >= line.length) return undefined;
      word = (word ?? '') + text;
    } else if (ch === '\\') {
      word = (word ?? '') + (line[i + 1] ?? '');
      i += 1;
    } else if (';&|<>()`$'.includes(ch)) {
      return undefined; // a pipeline, list or substitution is more than scp
    } else word = (word ?? '') + ch;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Whether an exec's command is the remote end of legacy scp, and what it names. */
export function parseScpCommand(command: string): ScpCommand | undefined {
  if (command.length > 64 * 1024) return undefined;
  const words = shellWords(command);
  if (!words || words.length < 2 || path.basename(words[0]!) !== 'scp') return undefined;
  let to = false;
  let from = false;
  let intoDirectory = false;
  let i = 1;
  for (; i < words.length; i += 1) {
    const w = words[i]!;
    if (w === '--') {
      i += 1;
      break;
    }
    if (!w.startsWith('-') || w === '-') break;
    if (!/^-[a-zA-Z]+$/.test(w)) return undefined;
    to ||= w.includes('t');
    from ||= w.includes('f');
    intoDirectory ||= w.includes('d') || w.includes('r');
  }
  const paths = words.slice(i);
  if (to === from || paths.length === 0) return undefined;
  if (to && paths.length !== 1) return undefined;
  return { direction: to ? 'upload' : 'download', paths, intoDirectory };
}
