import { describe, expect, it } from 'vitest';
import { browserScreen, desktopSize, endOfClose, parseAnswer, parseClipboardFrame, wsUrl } from './desktop-protocol';

describe('desktop protocol', () => {
  it('opens the socket on the console’s own origin and path, ws or wss as the page', () => {
    expect(wsUrl('/api/desktop/connect?definition=a', { href: 'http://gh.test:8080/#/desktop/a' })).toBe(
      'ws://gh.test:8080/api/desktop/connect?definition=a',
    );
    expect(wsUrl('/api/desktop/watch?recording=r', { href: 'https://gh.test/console/index.html#/x' })).toBe(
      'wss://gh.test/console/api/desktop/watch?recording=r',
    );
  });

  it('reads the gateway’s clipboard frames (a copy, or a refusal), and nothing else', () => {
    expect(parseClipboardFrame('{"clipboard":{"text":"مرحبا 👋"}}')).toEqual({ kind: 'copied', text: 'مرحبا 👋' });
    expect(parseClipboardFrame('{"clipboard_refused":"no","code":"too-long"}')).toEqual({
      kind: 'refused',
      message: 'no',
      code: 'too-long',
    });
    expect(parseClipboardFrame('{"clipboard_refused":"no","code":"other"}')).toEqual({
      kind: 'refused',
      message: 'no',
      code: null,
    });
    for (const other of ['{"clipboard":{"text":5}}', '{"clipboard":null}', '{"resize":{}}', 'null', '"x"', '{'])
      expect(parseClipboardFrame(other)).toBeNull();
  });

  it('asks for the area’s size within the server’s limits', () => {
    expect(desktopSize({ width: 1280.7, height: 800.2 })).toEqual({ width: 1280, height: 800 });
    expect(desktopSize({ width: 100, height: 0 })).toEqual({ width: 320, height: 240 });
    expect(desktopSize({ width: 9000, height: 5000 })).toEqual({ width: 3840, height: 2160 });
    expect(desktopSize({ width: Number.NaN, height: Number.POSITIVE_INFINITY })).toEqual({ width: 320, height: 240 });
  });

  it('tells the gateway the browser’s screen, or nothing when the browser does not know it', () => {
    expect(browserScreen({ availWidth: 1440, availHeight: 875.5 })).toEqual({ width: 1440, height: 876 });
    expect(browserScreen({ availWidth: 0, availHeight: 0 })).toBeUndefined();
    expect(browserScreen(undefined)).toBeUndefined();
  });

  it('reads each close code as the protocol names it', () => {
    const kinds = [4001, 4003, 4400, 4401, 4403, 4404, 4502, 4503, 1001, 1000, 1006, 4999].map(
      (code) => endOfClose(code, '', null).kind,
    );
    expect(kinds).toEqual([
      'terminated',
      'withdrawn',
      'badInput',
      'signIn',
      'notAdmitted',
      'notFound',
      'hostFailed',
      'unsupported',
      'serverStopping',
      'ended',
      'lost',
      'lost',
    ]);
  });

  it('keeps the server’s words: the error frame first, else the close reason', () => {
    expect(endOfClose(4001, 'Terminated by ada@example.test: audit', null)).toEqual({
      kind: 'terminated',
      message: 'Terminated by ada@example.test: audit',
    });
    expect(endOfClose(4502, 'x', 'RDP login failed')).toEqual({ kind: 'hostFailed', message: 'RDP login failed' });
    expect(endOfClose(1000, '  ', null)).toEqual({ kind: 'ended', message: null });
  });

  it('reads the ready and error answers, and nothing else', () => {
    expect(parseAnswer('{"ready":true,"recording_id":"r1","width":1280,"height":800}')).toEqual({
      kind: 'ready',
      recordingId: 'r1',
      size: { width: 1280, height: 800 },
      clipboard: 'both',
    });
    expect(parseAnswer('{"ready":true}')).toEqual({ kind: 'ready', recordingId: null, size: null, clipboard: 'both' });
    // The definition's clipboard policy; an unknown value reads as off, never wider.
    expect(parseAnswer('{"ready":true,"clipboard":"from-desktop"}')).toMatchObject({ clipboard: 'from-desktop' });
    expect(parseAnswer('{"ready":true,"clipboard":"sideways"}')).toMatchObject({ clipboard: 'off' });
    expect(parseAnswer('{"error":"Install freerdp2-x11"}')).toEqual({ kind: 'error', message: 'Install freerdp2-x11' });
    expect(parseAnswer('not json')).toEqual({ kind: 'unknown' });
    expect(parseAnswer('{"ready":"yes"}')).toEqual({ kind: 'unknown' });
    expect(parseAnswer('null')).toEqual({ kind: 'unknown' });
  });
});
