/** The levels of a log line, least to most severe; 'unknown' when the line names none. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/** A level of a log line. */
export type LogLevel = (typeof LOG_LEVELS)[number] | 'unknown';

/** The level filter of the viewer: everything, or this level and the more severe ones. */
export type LevelFilter = 'all' | 'debug' | 'info' | 'warn' | 'error';

/** One line of a component's log, read for people. */
export interface LogLine {
  /** Position in the answer (0 = oldest), stable across filtering. */
  index: number;
  /** The line as the server kept it. */
  raw: string;
  /** When it was written (ms since the epoch), or null when the line does not say. */
  time: number | null;
  level: LogLevel;
  /** The message, or the whole line when it is not structured. */
  message: string;
  /** The other fields of the line in short form, such as `req: GET /api/pods` or `err: …`. */
  details: string[];
}

// Pino's numeric levels (10 trace … 60 fatal).
const NUMERIC_LEVELS: Record<number, LogLevel> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

// Fields every line carries or that are shown elsewhere: not repeated as details.
const HIDDEN_FIELDS = new Set(['level', 'time', 'msg', 'message', 'pid', 'hostname', 'component', 'v']);

/** The longest a detail may be before it is cut (the raw view shows it whole). */
const DETAIL_MAX = 160;

function levelOf(value: unknown): LogLevel {
  if (typeof value === 'number') {
    const known = NUMERIC_LEVELS[value];
    if (known) return known;
    // A custom numeric level between the standard ones counts as the one below it.
    const floor = Math.floor(value / 10) * 10;
    return NUMERIC_LEVELS[Math.min(Math.max(floor, 10), 60)] ?? 'unknown';
  }
  if (typeof value === 'string') {
    const name = value.toLowerCase();
    if (name === 'warning') return 'warn';
    if (name === 'critical') return 'fatal';
    return (LOG_LEVELS as readonly string[]).includes(name) ? (name as LogLevel) : 'unknown';
  }
  return 'unknown';
}

function timeOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? null : parsed;
  }
  return null;
}

function clip(text: string): string {
  return text.length > DETAIL_MAX ? `${text.slice(0, DETAIL_MAX - 1)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A field in short form: request method and URL, response status, an error's message, else JSON. */
function describe(key: string, value: unknown): string {
  if (isRecord(value)) {
    if (typeof value.method === 'string' && typeof value.url === 'string')
      return `${key}: ${value.method} ${value.url}`;
    if (typeof value.statusCode === 'number' && Object.keys(value).length <= 2) return `${key}: ${value.statusCode}`;
    if (typeof value.message === 'string') {
      const type = typeof value.type === 'string' ? `${value.type}: ` : '';
      return clip(`${key}: ${type}${value.message}`);
    }
  }
  if (key === 'responseTime' && typeof value === 'number') return `${key}: ${value.toFixed(1)} ms`;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return clip(`${key}: ${text}`);
}

/**
 * Reads one line of a component's log. The server keeps pino's JSON lines (level as a number,
 * time in ms, msg); a line that is not JSON is kept as its own message with an unknown level.
 */
export function parseLogLine(raw: string, index: number): LogLine {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (!isRecord(parsed)) return { index, raw, time: null, level: 'unknown', message: raw.trim(), details: [] };
  const text = parsed.msg ?? parsed.message;
  const details = Object.entries(parsed)
    .filter(([key, value]) => !HIDDEN_FIELDS.has(key) && value !== undefined)
    .map(([key, value]) => describe(key, value));
  return {
    index,
    raw,
    time: timeOf(parsed.time),
    level: levelOf(parsed.level),
    message: typeof text === 'string' ? text : text === undefined ? '' : JSON.stringify(text),
    details,
  };
}

/** Reads every line of an answer, oldest first as the server sends them. */
export function parseLogLines(lines: readonly string[]): LogLine[] {
  return lines.map(parseLogLine);
}

/** How severe a level is; unknown lines rank below every level. */
export function severity(level: LogLevel): number {
  return level === 'unknown' ? -1 : LOG_LEVELS.indexOf(level);
}

/** The lines the viewer shows: at or above the chosen level, and containing the search text (any case). */
export function filterLogLines(lines: readonly LogLine[], filter: LevelFilter, search: string): LogLine[] {
  const needle = search.trim().toLowerCase();
  const minimum = filter === 'all' ? null : severity(filter);
  return lines.filter((line) => {
    if (minimum !== null && severity(line.level) < minimum) return false;
    if (!needle) return true;
    return (
      line.message.toLowerCase().includes(needle) ||
      line.details.some((detail) => detail.toLowerCase().includes(needle)) ||
      line.raw.toLowerCase().includes(needle)
    );
  });
}

/** How many lines of each level an answer holds, for the filter's labels. */
export function countByLevel(lines: readonly LogLine[]): Record<LogLevel, number> {
  const counts: Record<LogLevel, number> = {
    trace: 0,
    debug: 0,
    info: 0,
    warn: 0,
    error: 0,
    fatal: 0,
    unknown: 0,
  };
  for (const line of lines) counts[line.level] += 1;
  return counts;
}

/** The search text's places in a message, for highlighting: [start, end) pairs, any case. */
export function matchRanges(text: string, search: string): [number, number][] {
  const needle = search.trim().toLowerCase();
  if (!needle) return [];
  const haystack = text.toLowerCase();
  const ranges: [number, number][] = [];
  let from = haystack.indexOf(needle);
  while (from !== -1) {
    ranges.push([from, from + needle.length]);
    from = haystack.indexOf(needle, from + needle.length);
  }
  return ranges;
}

/** The shown lines as a file: the raw JSON lines, one per line, ending with a newline. */
export function logFileText(lines: readonly LogLine[]): string {
  return lines.length === 0 ? '' : `${lines.map((line) => line.raw).join('\n')}\n`;
}

/** A file name for a component's log saved at `at`: gatehouse-<component>-<UTC yyyymmdd-hhmmss>.log. */
export function logFileName(component: string, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
  const safe = component.replace(/[^a-zA-Z0-9_-]/g, '_');
  return `gatehouse-${safe}-${stamp}.log`;
}

/**
 * The shown lines as plain text for the clipboard: the raw JSON lines, or each line as the
 * viewer reads it (time, level, message, details) with the given time and level texts.
 */
export function plainLogText(
  lines: readonly LogLine[],
  raw: boolean,
  timeText: (line: LogLine) => string,
  levelText: (level: LogLevel) => string,
): string {
  if (raw) return logFileText(lines);
  return lines
    .map((line) =>
      [timeText(line), levelText(line.level), line.message, ...line.details].filter((part) => part !== '').join('  '),
    )
    .join('\n');
}
