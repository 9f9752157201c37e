import { describe, expect, it } from 'vitest';
import { readOptions } from './options.js';

const base = ['--server', 'https://gh.example.test'];

describe('capture options', () => {
  it('films each stream’s own xrdp session unless a source is named, and waits 120 s by default', () => {
    const o = readOptions(base, {});
    expect(o).toMatchObject({ capture: { source: undefined, ffmpeg: 'ffmpeg' } });
    expect((o as { capture: { waitMs?: number } }).capture.waitMs).toBeUndefined();
  });

  it('takes --capture-source (or --capture-display) as the override for a plain X desktop', () => {
    expect(readOptions([...base, '--capture-display', ':0'], {})).toMatchObject({ capture: { source: ':0' } });
    expect(readOptions(base, { GATEHOUSE_CAPTURE_SOURCE: ':1' })).toMatchObject({ capture: { source: ':1' } });
  });

  it('takes --capture-wait in whole seconds, from the flag or GATEHOUSE_CAPTURE_WAIT', () => {
    expect(readOptions([...base, '--capture-wait', '30'], {})).toMatchObject({ capture: { waitMs: 30_000 } });
    expect(readOptions(base, { GATEHOUSE_CAPTURE_WAIT: '5' })).toMatchObject({ capture: { waitMs: 5000 } });
    for (const bad of ['0', '1.5', 'soon', '3601']) {
      expect(readOptions([...base, `--capture-wait=${bad}`], {})).toEqual({
        error: `--capture-wait must be whole seconds from 1 to 3600, not ${bad}`,
      });
    }
  });
});
