import { describe, expect, it } from 'vitest';
import {
  countByLevel,
  filterLogLines,
  logFileName,
  logFileText,
  matchRanges,
  parseLogLine,
  parseLogLines,
  plainLogText,
} from './log-lines';

// Lines as the server's LogBook keeps them (pino through createLogger, captured from a real run).
const REQUEST =
  '{"level":30,"time":1795319484094,"pid":32714,"hostname":"vm","reqId":"req-1","req":{"method":"GET","url":"/api/pods","host":"127.0.0.1:19300","remoteAddress":"127.0.0.1","remotePort":51234},"msg":"incoming request"}';
const COMPLETED =
  '{"level":30,"time":1795319484095,"pid":32714,"hostname":"vm","reqId":"req-1","res":{"statusCode":200},"responseTime":12.3456,"msg":"request completed"}';
const WARNING =
  '{"level":40,"time":1795319484096,"pid":32714,"hostname":"vm","agent":"a1b2","msg":"agent sent a malformed message; closing"}';
const FAILURE =
  '{"level":50,"time":1795319484097,"pid":32714,"hostname":"vm","component":"gateway","err":{"type":"Error","message":"connect ECONNREFUSED 127.0.0.1:22","stack":"Error: connect ECONNREFUSED 127.0.0.1:22\\n    at file:///x.mjs:6:50"},"msg":"gateway session failed"}';

describe('parseLogLine', () => {
  it('reads time, level and message of a pino line, and the request in short form', () => {
    expect(parseLogLine(REQUEST, 0)).toEqual({
      index: 0,
      raw: REQUEST,
      time: 1795319484094,
      level: 'info',
      message: 'incoming request',
      details: ['reqId: req-1', 'req: GET /api/pods'],
    });
  });

  it('shows the response status and time, not the fields every line carries', () => {
    const line = parseLogLine(COMPLETED, 1);
    expect(line.details).toEqual(['reqId: req-1', 'res: 200', 'responseTime: 12.3 ms']);
    expect(line.details.join(' ')).not.toMatch(/pid|hostname|vm/);
  });

  it('names the error of an error line by its type and message, without the stack', () => {
    const line = parseLogLine(FAILURE, 3);
    expect(line.level).toBe('error');
    expect(line.message).toBe('gateway session failed');
    expect(line.details).toEqual(['err: Error: connect ECONNREFUSED 127.0.0.1:22']);
  });

  it('maps every pino level number, and names used by other loggers', () => {
    const levelOf = (level: unknown) => parseLogLine(JSON.stringify({ level, msg: 'x' }), 0).level;
    expect([10, 20, 30, 40, 50, 60].map(levelOf)).toEqual(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);
    expect(levelOf(35)).toBe('info');
    expect(levelOf('WARNING')).toBe('warn');
    expect(levelOf('error')).toBe('error');
    expect(levelOf('loud')).toBe('unknown');
    expect(levelOf(undefined)).toBe('unknown');
  });

  it('reads an ISO time as well as milliseconds', () => {
    expect(parseLogLine('{"time":"2026-11-22T03:45:21.821Z","msg":"x"}', 0).time).toBe(
      Date.parse('2026-11-22T03:45:21.821Z'),
    );
    expect(parseLogLine('{"time":"yesterday","msg":"x"}', 0).time).toBeNull();
  });

  it('keeps a line that is not JSON as its own message with no level or time', () => {
    expect(parseLogLine('  plain text from somewhere  ', 4)).toEqual({
      index: 4,
      raw: '  plain text from somewhere  ',
      time: null,
      level: 'unknown',
      message: 'plain text from somewhere',
      details: [],
    });
    expect(parseLogLine('[1,2,3]', 0).level).toBe('unknown');
    expect(parseLogLine('"just a string"', 0).message).toBe('"just a string"');
  });

  it('cuts a very long detail, while the raw line keeps everything', () => {
    const long = 'y'.repeat(1000);
    const raw = JSON.stringify({ level: 30, msg: 'big', payload: long });
    const line = parseLogLine(raw, 0);
    expect(line.details[0]?.length).toBe(160);
    expect(line.details[0]?.endsWith('…')).toBe(true);
    expect(line.raw).toBe(raw);
  });

  it('takes `message` when a line has no `msg`, and shows a non-text message as JSON', () => {
    expect(parseLogLine('{"level":30,"message":"from another logger"}', 0).message).toBe('from another logger');
    expect(parseLogLine('{"level":30,"msg":{"a":1}}', 0).message).toBe('{"a":1}');
    expect(parseLogLine('{"level":30}', 0).message).toBe('');
  });
});

describe('filterLogLines', () => {
  const lines = parseLogLines([REQUEST, COMPLETED, WARNING, FAILURE, 'not json at all']);

  it('keeps everything for all levels and no search', () => {
    expect(filterLogLines(lines, 'all', '')).toHaveLength(5);
  });

  it('keeps the chosen level and more severe ones, dropping lines without a level', () => {
    expect(filterLogLines(lines, 'warn', '').map((l) => l.index)).toEqual([2, 3]);
    expect(filterLogLines(lines, 'error', '').map((l) => l.index)).toEqual([3]);
    expect(filterLogLines(lines, 'debug', '').map((l) => l.index)).toEqual([0, 1, 2, 3]);
  });

  it('searches message, details and the raw line in any case', () => {
    expect(filterLogLines(lines, 'all', 'ECONNREFUSED').map((l) => l.index)).toEqual([3]);
    expect(filterLogLines(lines, 'all', '/API/PODS').map((l) => l.index)).toEqual([0]);
    expect(filterLogLines(lines, 'all', 'req-1').map((l) => l.index)).toEqual([0, 1]);
    expect(filterLogLines(lines, 'all', '  json  ').map((l) => l.index)).toEqual([4]);
    expect(filterLogLines(lines, 'warn', 'request')).toEqual([]);
  });

  it('counts the lines of each level', () => {
    expect(countByLevel(lines)).toEqual({ trace: 0, debug: 0, info: 2, warn: 1, error: 1, fatal: 0, unknown: 1 });
  });
});

describe('matchRanges', () => {
  it('finds every match in any case, none for an empty search', () => {
    expect(matchRanges('Request completed, request done', 'REQUEST')).toEqual([
      [0, 7],
      [19, 26],
    ]);
    expect(matchRanges('aaaa', 'aa')).toEqual([
      [0, 2],
      [2, 4],
    ]);
    expect(matchRanges('anything', '   ')).toEqual([]);
  });
});

describe('copy and download', () => {
  const lines = parseLogLines([REQUEST, FAILURE]);

  it('writes the raw JSON lines as a file, one per line', () => {
    expect(logFileText(lines)).toBe(`${REQUEST}\n${FAILURE}\n`);
    expect(logFileText([])).toBe('');
  });

  it('copies lines as read: time, level, message and details; or raw', () => {
    const text = plainLogText(
      lines,
      false,
      (line) => (line.time === null ? '' : `t${line.index}`),
      (level) => level.toUpperCase(),
    );
    expect(text).toBe(
      't0  INFO  incoming request  reqId: req-1  req: GET /api/pods\n' +
        't1  ERROR  gateway session failed  err: Error: connect ECONNREFUSED 127.0.0.1:22',
    );
    expect(
      plainLogText(
        lines,
        true,
        () => '',
        () => '',
      ),
    ).toBe(logFileText(lines));
  });

  it('names the file after the component and the UTC time, with nothing unsafe in it', () => {
    expect(logFileName('recording-storage', new Date('2026-11-22T03:45:21.821Z'))).toBe(
      'gatehouse-recording-storage-20261122-034521.log',
    );
    expect(logFileName('../etc/passwd', new Date('2026-01-02T03:04:05Z'))).toBe(
      'gatehouse-___etc_passwd-20260102-030405.log',
    );
  });
});
