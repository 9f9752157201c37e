// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../../lib/catalogues';
import { i18next } from '../../../lib/i18n';
import { IntegrityAlert } from './integrity-alert';

const intact = {
  status: 'intact',
  message: 'All 12 chunks verify against the signed manifest (signature by key abc).',
  checked_bytes: 759,
  chunks: 12,
} as const;

afterEach(async () => {
  cleanup();
  await act(() => i18next.changeLanguage('en'));
});

describe('the verification’s outcome', () => {
  it('is a sentence built from the answer, with sizes in binary units', () => {
    render(<IntegrityAlert result={intact} />);
    expect(screen.getByRole('status').textContent).toContain('All 12 chunks (759 B) match the signed manifest.');
  });

  it('shows its status details in Arabic, with no English from the server', async () => {
    i18next.addResourceBundle('ar', 'translation', await loadCatalogue('ar'));
    await act(() => i18next.changeLanguage('ar'));
    render(
      <IntegrityAlert
        result={{
          ...intact,
          status: 'tampered',
          video: { status: 'tampered', message: 'piece 3 differs', bytes: 1, pieces: 4, cut: false },
        }}
      />,
    );
    const text = screen.getByRole('status').textContent ?? '';
    expect(text).toContain('لم يعد التسجيل يطابق ما وُقّع');
    expect(text).not.toMatch(/[A-Za-z]/);
    expect(screen.getByRole('status').getAttribute('title')).toBeNull();
  });
});
