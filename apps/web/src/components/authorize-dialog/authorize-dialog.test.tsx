// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { SecondFactorMethod } from '@gatehouse/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../testing/render-with-providers';
import { AuthorizeDialog } from './authorize-dialog';

afterEach(cleanup);

/** The dialog after a single sign-on, for an account with these factors; onPasskey when the browser has passkeys. */
function afterSso(methods: SecondFactorMethod[], passkeys = true) {
  const onPasskey = vi.fn();
  renderWithProviders(
    <AuthorizeDialog
      open
      email="ada@example.test"
      password=""
      onPasswordChange={vi.fn()}
      submitting={false}
      errors={[]}
      after401
      onSubmit={vi.fn()}
      onCancel={vi.fn()}
      code=""
      onCodeChange={vi.fn()}
      ssoMethods={methods}
      onPasskey={passkeys ? onPasskey : undefined}
    />,
  );
  const dialog = screen.getByRole('dialog', { name: 'Authorize' });
  return {
    dialog,
    onPasskey,
    buttons: within(dialog)
      .getAllByRole('button')
      .map((b) => b.textContent),
  };
}

describe('Authorize dialog after a single sign-on', () => {
  it('offers someone with a passkey and recovery codes the passkey first, then a recovery code (no app)', () => {
    const { dialog, onPasskey, buttons } = afterSso(['passkey', 'recovery-code']);
    expect(dialog.textContent).toContain('To finish, use your passkey, or enter a recovery code.');
    expect(within(dialog).queryByLabelText('Code from your app')).toBeNull();
    expect(within(dialog).getByLabelText('Recovery code')).toBeTruthy();
    expect(buttons).toEqual(['Use your passkey', 'Cancel', 'Authorize']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use your passkey' }));
    expect(onPasskey).toHaveBeenCalledOnce();
  });

  it('with a passkey alone, its button is the only way to authorize', () => {
    const { dialog, buttons } = afterSso(['passkey']);
    expect(dialog.textContent).toContain('To finish, use your passkey.');
    expect(within(dialog).queryByRole('textbox', { name: /code/i })).toBeNull();
    expect(buttons).toEqual(['Use your passkey', 'Cancel']);
  });

  it('in a browser without passkeys, asks a passkey user for a recovery code and says why', () => {
    const { dialog, buttons } = afterSso(['passkey', 'recovery-code'], false);
    expect(dialog.textContent).toContain('This browser cannot use your passkey: to finish, enter a recovery code.');
    expect(within(dialog).getByLabelText('Recovery code')).toBeTruthy();
    expect(buttons).toEqual(['Cancel', 'Authorize']);
  });

  it('with an authenticator app too, asks for its code first and offers the passkey instead', () => {
    const { dialog, buttons } = afterSso(['totp', 'passkey', 'recovery-code']);
    expect(dialog.textContent).toContain(
      'enter the code from your authenticator app or a recovery code, or use your passkey',
    );
    expect(within(dialog).getByLabelText('Code from your app')).toBeTruthy();
    expect(within(dialog).getByText('Or a recovery code')).toBeTruthy();
    expect(buttons).toEqual(['Use a passkey instead', 'Cancel', 'Authorize']);
  });
});

describe('Authorize dialog with a long email', () => {
  const LONG = 'samantha.sweep-of-the-operations-team@very-long.example.test';

  function open(email: string) {
    renderWithProviders(
      <AuthorizeDialog
        open
        email={email}
        password=""
        onPasswordChange={vi.fn()}
        submitting={false}
        errors={[]}
        after401={false}
        onSubmit={vi.fn()}
        onCancel={vi.fn()}
      />,
    );
    return screen.getByRole('dialog', { name: 'Authorize' });
  }

  it('keeps the 240 px field and shows the whole address under it, with the field titled, when it is cut', () => {
    expect(LONG).toHaveLength(60);
    // happy-dom lays nothing out: the field's text is made wider than its box, as a browser measures it.
    const widths = vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(480);
    const boxes = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(212);
    try {
      const dialog = open(LONG);
      const field = within(dialog).getByRole('textbox', { name: 'User Email' });
      expect(field.getAttribute('title')).toBe(LONG);
      expect((field as HTMLInputElement).value).toBe(LONG);
      const whole = within(dialog).getByText(LONG, { selector: 'p' });
      expect(whole.getAttribute('dir')).toBe('ltr');
      expect(field.getAttribute('aria-describedby')).toBe(whole.id);
    } finally {
      widths.mockRestore();
      boxes.mockRestore();
    }
  });

  it('adds no line under a field its address fits', () => {
    const dialog = open('ada@example.test');
    expect(within(dialog).queryByText('ada@example.test', { selector: 'p' })).toBeNull();
  });
});
