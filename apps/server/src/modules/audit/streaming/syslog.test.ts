import type { AuditEntry } from '@gatehouse/contracts';
import { describe, expect, it } from 'vitest';
import { frame, sdValue, syslogMessage } from './syslog.js';

const entry: AuditEntry = {
  id: 7,
  at: '2030-03-01T10:00:00.000Z',
  actor: 'alice@example.test',
  action: 'auth.login',
  target: null,
  outcome: 'success',
  status: 200,
  source: '10.0.0.1',
  detail: null,
};

describe('syslog messages (RFC 5424)', () => {
  it('escapes the structured-data specials and writes control characters as text', () => {
    expect(sdValue('a"b\\c]d')).toBe('a\\"b\\\\c\\]d');
    expect(sdValue('x\r\ny\u0000\u2028')).toBe('x\\\\u000d\\\\u000ay\\\\u0000\\\\u2028');
  });

  it('keeps the header to printable ASCII, the action as MSGID cut at 32', () => {
    const message = syslogMessage(
      { ...entry, action: `évil action ${'x'.repeat(40)}` },
      { facility: 'local0' },
      'host name',
    );
    expect(message).toMatch(
      /^<134>1 2030-03-01T10:00:00\.000Z host_name gatehouse \d+ _vil_action_x{20} \[gatehouse@32473 /,
    );
    expect(message).not.toMatch(/[\r\n]/);
  });

  it('sends an over-long entry with its detail replaced by its size, never more than the limit', () => {
    const big = syslogMessage(
      { ...entry, target: 't'.repeat(5000), detail: { blob: 'y'.repeat(20_000) } },
      { facility: 'auth' },
    );
    expect(Buffer.byteLength(big)).toBeLessThanOrEqual(8000);
    const json = JSON.parse(big.slice(big.indexOf('\uFEFF') + 1)) as AuditEntry;
    expect(json.detail).toEqual({ truncated: true, detail_bytes: 20_011 });
    expect(json.target).toHaveLength(5000);
    const huge = syslogMessage({ ...entry, target: 'z'.repeat(50_000) }, { facility: 'auth' });
    expect(Buffer.byteLength(huge)).toBeLessThanOrEqual(8000);
    expect((JSON.parse(huge.slice(huge.indexOf('\uFEFF') + 1)) as AuditEntry).target).toHaveLength(1000);
  });

  it('frames by octet count, multibyte characters counted as bytes', () => {
    expect(frame('é').toString('utf8')).toBe('2 é');
  });
});
