/** A piece of a line around a match, and where the match lies in it (the console highlights it). */
export interface Snippet {
  snippet: string;
  match_start: number;
  match_length: number;
  clipped_start: boolean;
  clipped_end: boolean;
}

/** Characters of context kept on each side of a match, before moving to a word boundary. */
export const SNIPPET_CONTEXT = 80;

/** How much further than the context a cut may move to reach a word boundary. */
const REACH = 40;

const SPACE = /\s/;

/** True when nothing but whitespace lies from `from` to the line's end (step 1) or start (step -1). */
function onlySpace(line: string, from: number, step: 1 | -1): boolean {
  for (let i = step === 1 ? from : from - 1; i >= 0 && i < line.length; i += step)
    if (!SPACE.test(line[i] ?? '')) return false;
  return true;
}

/** How a snippet is cut. */
export interface SnippetOptions {
  /** Characters of context each side of the match, before moving to a word boundary. */
  context?: number;
  /** Each run of whitespace (newlines of terminal output) becomes one space. */
  collapse?: boolean;
  /** The text is itself cut from something longer: its first character is not a word's start. */
  openStart?: boolean;
}

/**
 * The part of `line` around [at, at + length): about `context` characters each side, cut at word
 * boundaries (whitespace) so it never starts or ends inside a word unless a word is longer than
 * the reach. Used by both searches (across recordings, and within one recording's output) so
 * their snippets read alike.
 */
export function snippetAt(line: string, at: number, length: number, options: SnippetOptions = {}): Snippet {
  const { context = SNIPPET_CONTEXT, collapse = false, openStart = false } = options;
  const matchEnd = at + length;
  let start = Math.max(0, at - context);
  let end = Math.min(line.length, matchEnd + context);
  const insideWord = start > 0 ? !SPACE.test(line[start - 1] ?? ' ') : openStart;
  if (insideWord && !SPACE.test(line[start] ?? ' ')) {
    // Inside a word: forward to the next word's start before the match, else back to this word's start.
    const ahead = line.slice(start, at).search(SPACE);
    if (ahead >= 0) start += ahead;
    else {
      const behind = line.slice(Math.max(0, start - REACH), start);
      const space = Math.max(behind.lastIndexOf(' '), behind.lastIndexOf('\t'), behind.lastIndexOf('\n'));
      if (space >= 0) start = start - behind.length + space + 1;
      else if (start - REACH <= 0 && !openStart) start = 0;
    }
  }
  if (end < line.length && !SPACE.test(line[end] ?? ' ')) {
    const tail = line.slice(matchEnd, end);
    const last = Math.max(tail.lastIndexOf(' '), tail.lastIndexOf('\t'), tail.lastIndexOf('\n'));
    if (last >= 0) end = matchEnd + last;
    else {
      const beyond = line.slice(end, end + REACH).search(SPACE);
      if (beyond >= 0) end += beyond;
      else if (end + REACH >= line.length) end = line.length;
    }
  }
  while (start < at && SPACE.test(line[start] ?? '')) start += 1;
  while (end > matchEnd && SPACE.test(line[end - 1] ?? '')) end -= 1;
  const tidy = (text: string) => (collapse ? text.replace(/\s+/g, ' ') : text);
  const before = tidy(line.slice(start, at));
  const match = tidy(line.slice(at, matchEnd));
  return {
    snippet: before + match + tidy(line.slice(matchEnd, end)),
    match_start: before.length,
    match_length: match.length,
    clipped_start: openStart || !onlySpace(line, start, -1),
    clipped_end: !onlySpace(line, end, 1),
  };
}

/**
 * The snippet around the first occurrence of q (compared case-insensitively); where JavaScript's
 * case folding changes the line's length (the database's ILIKE found it), the line's start, unmarked.
 */
export function snippet(line: string, q: string, context = SNIPPET_CONTEXT): Snippet {
  const lower = line.toLocaleLowerCase();
  const at = lower.indexOf(q.toLocaleLowerCase());
  if (at >= 0 && lower.length === line.length) return snippetAt(line, at, q.length, { context });
  const shown = snippetAt(line, 0, 0, { context: 2 * context });
  return { ...shown, match_start: 0, match_length: 0 };
}
