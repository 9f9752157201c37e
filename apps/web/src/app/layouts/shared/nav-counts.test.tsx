// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../../lib/catalogues';
import { i18next } from '../../../lib/i18n';
import { NavCounts } from './nav-counts';

afterEach(async () => {
  cleanup();
  await i18next.changeLanguage('en');
});

const counts = { totalSessions: 1234, liveSessions: 2 };

describe('navigation badges', () => {
  it('give each count an accessible label saying what it counts', () => {
    render(<NavCounts id="c" keys={['totalSessions', 'liveSessions']} counts={counts} />);
    const badges = screen.getAllByRole('img');
    expect(badges.map((badge) => badge.getAttribute('aria-label'))).toEqual([
      'Sessions in total: 1,234',
      'Live sessions: 2',
    ]);
    expect(badges.map((badge) => badge.textContent)).toEqual(['1,234', '2']);
  });

  it('explain a count in a tooltip on hover', async () => {
    render(<NavCounts id="c" keys={['totalSessions', 'liveSessions']} counts={counts} />);
    fireEvent.mouseOver(screen.getByRole('img', { name: 'Live sessions: 2' }));
    expect((await screen.findByRole('tooltip')).textContent).toBe('Live sessions: 2');
  });

  it('say it in Arabic too', async () => {
    i18next.addResourceBundle('ar', 'translation', await loadCatalogue('ar'));
    await act(() => i18next.changeLanguage('ar'));
    render(<NavCounts id="c" keys={['totalHosts', 'connectedHosts']} counts={{ totalHosts: 5, connectedHosts: 0 }} />);
    const names = screen.getAllByRole('img').map((badge) => badge.getAttribute('aria-label'));
    expect(names[0]).toContain('إجمالي الوكلاء');
    expect(names[1]).toContain('الوكلاء المتصلون');
  });

  it('leave only the hidden description in a collapsed rail', () => {
    const { container } = render(<NavCounts id="c" keys={['totalSessions']} counts={counts} chips={false} />);
    expect(screen.queryAllByRole('img')).toHaveLength(0);
    expect(container.querySelector('#c')?.textContent).toBe('Sessions in total: 1,234');
  });
});
