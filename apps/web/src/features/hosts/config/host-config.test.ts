import { describe, expect, it } from 'vitest';
import { toBody, toForm, validateForm } from './config-form';
import { bitrateToMbps, defaultConfig, mbpsToBitrate, parseWhitelist } from './host-config';

describe('bitrate conversion', () => {
  it('shows the server’s kbps text in Mbps', () => {
    expect(bitrateToMbps('2000k')).toBe(2);
    expect(bitrateToMbps('500k')).toBe(0.5);
    expect(bitrateToMbps('12500k')).toBe(12.5);
  });

  it('sends Mbps × 1000 with a k suffix', () => {
    expect(mbpsToBitrate(2)).toBe('2000k');
    expect(mbpsToBitrate(0.5)).toBe('500k');
    expect(mbpsToBitrate(1.2345)).toBe('1235k');
  });

  it('round-trips every value the form shows', () => {
    for (const kbps of ['100k', '2000k', '7500k', '50000k']) expect(mbpsToBitrate(bitrateToMbps(kbps))).toBe(kbps);
  });

  it('falls back to the 2 Mbps default for text it cannot read', () => {
    expect(bitrateToMbps('fast')).toBe(2);
  });
});

describe('parseWhitelist', () => {
  it('trims a trailing comma before splitting', () => {
    expect(parseWhitelist('22, 3389,')).toEqual({ ports: [22, 3389] });
    expect(parseWhitelist('8080 , ')).toEqual({ ports: [8080] });
  });

  it('answers an empty list for empty text', () => {
    expect(parseWhitelist('  ')).toEqual({ ports: [] });
    expect(parseWhitelist(',')).toEqual({ ports: [] });
  });

  it('drops duplicates and keeps the order typed', () => {
    expect(parseWhitelist('443,22,443')).toEqual({ ports: [443, 22] });
  });

  it('names the entry that is not a port from 1 to 65535', () => {
    expect(parseWhitelist('22, 70000')).toEqual({
      error: { key: 'hosts.config.errors.badPort', values: { entry: '70000' } },
    });
    expect(parseWhitelist('0')).toEqual({ error: { key: 'hosts.config.errors.badPort', values: { entry: '0' } } });
    expect(parseWhitelist('ssh')).toEqual({ error: { key: 'hosts.config.errors.badPort', values: { entry: 'ssh' } } });
    expect(parseWhitelist('22.5')).toEqual({
      error: { key: 'hosts.config.errors.badPort', values: { entry: '22.5' } },
    });
  });

  it('refuses an empty entry between commas', () => {
    expect(parseWhitelist('22,,80')).toEqual({ error: { key: 'hosts.config.errors.emptyPort' } });
  });
});

describe('config form', () => {
  const windows = defaultConfig(2);

  it('starts from the spec defaults, 3389 whitelisted on Windows only', () => {
    expect(toForm(windows)).toEqual({
      loglevel: 'ERROR',
      recordingEnabled: false,
      fps: '5',
      scale: '1',
      bitrateMbps: '2',
      whitelist: '3389',
    });
    expect(defaultConfig(1).whitelist).toEqual([]);
  });

  it('finds nothing wrong with the defaults and saves them as the server keeps them', () => {
    const form = toForm(windows);
    expect(validateForm(form)).toEqual({});
    expect(toBody(form)).toEqual(windows);
  });

  it('checks fps 1-30 whole, scale above 0 up to 1, bitrate 0.1-50 Mbps and each port', () => {
    const errors = validateForm({
      ...toForm(windows),
      fps: '31',
      scale: '0',
      bitrateMbps: '0.05',
      whitelist: '22,abc',
    });
    expect(Object.keys(errors).sort()).toEqual(['bitrateMbps', 'fps', 'scale', 'whitelist']);
    expect(validateForm({ ...toForm(windows), fps: '2.5' }).fps?.key).toBe('hosts.config.errors.fps');
    expect(validateForm({ ...toForm(windows), scale: '1.01' }).scale).toBeDefined();
    expect(validateForm({ ...toForm(windows), scale: '0.25', fps: '30', bitrateMbps: '50' })).toEqual({});
  });

  it('sends the typed Mbps in kbps and the whitelist as a list', () => {
    const body = toBody({ ...toForm(windows), loglevel: 'DEBUG', bitrateMbps: '3.5', whitelist: '22, 5900,' });
    expect(body).toMatchObject({ loglevel: 'DEBUG', recording_bitrate: '3500k', whitelist: [22, 5900] });
  });
});
