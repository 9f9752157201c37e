// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../../lib/catalogues';
import { loadDateLocale } from '../../../lib/dates';
import { i18next } from '../../../lib/i18n';
import type { RecordingDetail } from '../api/recording-detail';
import { RecordingFacts } from './recording-facts';

const email = 'a.very.long.name.of.someone@subsidiary.example-corporation.test';

const recording = {
  id: '00000000-0000-4000-8000-0000000000cc',
  host: { id: 'h1', hostname: 'win-desktop-07' },
  user: { email },
  type: 'rdp',
  started_on: '2026-03-01T10:00:00Z',
  ended_on: '2026-03-01T10:01:12.632Z',
  duration_ms: 72_632,
  tunnel: 'Design workstation',
  end_reason: 'idle',
  terminated_by: null,
} as unknown as RecordingDetail;

afterEach(async () => {
  cleanup();
  await act(() => i18next.changeLanguage('en'));
});

describe('the player’s facts', () => {
  it('keep a long email on its line (ellipsis, whole in the tooltip) and say the end reason in words', () => {
    render(<RecordingFacts recording={recording} />);
    const user = screen.getByTitle(email);
    expect(user.textContent).toBe(email);
    expect(getComputedStyle(user).textOverflow).toBe('ellipsis');
    expect(getComputedStyle(user).whiteSpace).toBe('nowrap');
    expect(screen.getByTestId('recording-facts').textContent).toContain('Closed after being idle');
    expect(screen.getByTestId('recording-facts').textContent).toContain('1 min 12 sec');
  });

  it('show no English end reason, duration or label in Arabic', async () => {
    // As the console switches (lib/i18n.ts): the messages and the dates' locale, then the language.
    i18next.addResourceBundle('ar', 'translation', await loadCatalogue('ar'));
    await loadDateLocale('ar');
    await act(() => i18next.changeLanguage('ar'));
    render(<RecordingFacts recording={{ ...recording, end_reason: 'host-disconnected' }} />);
    const text = screen.getByTestId('recording-facts').textContent ?? '';
    // Everything Latin left is data: the host, the email, the tunnel's name and the type.
    const rest = text
      .replace(email, '')
      .replace('win-desktop-07', '')
      .replace('Design workstation', '')
      .replace('RDP', '');
    expect(rest).not.toMatch(/[A-Za-z]/);
    expect(text).toContain('انقطع اتصال المضيف');
  });
});
