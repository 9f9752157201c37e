// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FakeAnswer } from '../../../components/testing/render-with-providers';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import { signIn, signOut } from '../../../lib/session';
import { SettingsPage } from './settings-page';

const RESET = {
  id: '0b9f2c4e-1d2a-4c3b-8e5f-6a7b8c9d0e1f',
  created_at: new Date(Date.now() - 42 * 60_000).toISOString(),
  from: 'Gatehouse <gatehouse@acme.example>',
  to: 'grace.kim@acme.example',
  subject: 'Reset your Gatehouse password',
};
const SIGN_UP = {
  id: '1c0a3d5f-2e3b-4d4c-9f60-7b8c9d0e1f2a',
  created_at: new Date(Date.now() - 26 * 3_600_000).toISOString(),
  from: 'Gatehouse <gatehouse@acme.example>',
  to: 'new.contractor@partner.example',
  subject: 'Confirm your Gatehouse sign-up',
};
const RESET_TEXT =
  'Someone asked Gatehouse to reset the password of this account.\n\nOpen this link within one hour to choose a new password:\nhttps://gatehouse.acme.example/#/reset-password?token=abc123';
const LICENSE = {
  status: 'missing',
  customer: null,
  expires: null,
  issued_at: null,
  license_id: null,
  max_agents: null,
  agents_used: 0,
  development: false,
};

function signInAs(role: string, permissions: string[]) {
  signIn('token', {
    email: 'ada@example.test',
    username: 'ada@example.test',
    name: null,
    roles: [{ name: role, permissions }],
    effectivePermissions: permissions,
    authType: 'jwt_auth',
  });
}

const outboxOf = (messages: object[], smtp = false): FakeAnswer => [
  200,
  { smtp_configured: smtp, total: messages.length, messages },
];

function renderOutbox(answers: Record<string, FakeAnswer>, path = '/settings?section=outbox') {
  const seen = fakeServer({ 'GET api/license': [200, LICENSE], ...answers });
  renderWithProviders(
    <MemoryRouter initialEntries={[path]}>
      <SettingsPage />
    </MemoryRouter>,
  );
  return seen;
}

/** The grid row that holds a text. */
async function rowOf(text: string): Promise<HTMLElement> {
  const cell = await screen.findByText(text);
  const row = cell.closest('[role="row"]');
  if (!(row instanceof HTMLElement)) throw new Error(`no row holds ${text}`);
  return row;
}

afterEach(() => {
  cleanup();
  signOut();
  vi.unstubAllGlobals();
});

describe('Mail outbox', () => {
  it('explains the outbox and lists the kept mail, newest first, searchable', async () => {
    signInAs('admin', ['manage-settings', 'manage-license']);
    const seen = renderOutbox({ 'GET api/mail/outbox': outboxOf([SIGN_UP, RESET]) });
    expect(screen.getByRole('tab', { name: 'Mail outbox', selected: true })).toBeTruthy();
    expect(
      await screen.findByText(
        'No mail server is set: messages are kept here instead of being sent. They may contain password-reset links: treat them as secrets.',
      ),
    ).toBeTruthy();
    const grid = await screen.findByRole('grid', { name: 'Mail outbox' });
    await rowOf('grace.kim@acme.example');
    const rows = within(grid).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('gridcell')[0]?.textContent)).toEqual([
      'grace.kim@acme.example',
      'new.contractor@partner.example',
    ]);
    expect(within(await rowOf('grace.kim@acme.example')).getByText('42 minutes ago')).toBeTruthy();
    expect(seen.find((request) => request.url.startsWith('api/mail/outbox'))?.url).toBe('api/mail/outbox?limit=200');

    fireEvent.change(screen.getByLabelText('Search messages'), { target: { value: 'sign-up' } });
    await waitFor(() => expect(screen.queryByText('grace.kim@acme.example')).toBeNull());
    expect(screen.getByText('new.contractor@partner.example')).toBeTruthy();
  });

  it('opens a message to read its text, with a warning to treat it as a secret', async () => {
    signInAs('admin', ['manage-license']);
    const seen = renderOutbox({
      'GET api/mail/outbox': outboxOf([RESET]),
      [`GET api/mail/outbox/${RESET.id}`]: [200, { ...RESET, text: RESET_TEXT }],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Reset your Gatehouse password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset your Gatehouse password' });
    expect((await within(dialog).findByLabelText('Message text')).textContent).toBe(RESET_TEXT);
    expect(within(dialog).getByText('Gatehouse <gatehouse@acme.example>')).toBeTruthy();
    expect(within(dialog).getByText(/whoever opens it can take over the account/)).toBeTruthy();
    expect(seen.map((request) => request.url)).toContain(`api/mail/outbox/${RESET.id}`);
  });

  it('says in words when a message is gone', async () => {
    signInAs('admin', ['manage-license']);
    renderOutbox({
      'GET api/mail/outbox': outboxOf([RESET]),
      [`GET api/mail/outbox/${RESET.id}`]: [
        404,
        { statusCode: 404, error: 'Not Found', message: 'This message is no longer in the outbox: it was deleted.' },
      ],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Read the message to grace.kim@acme.example' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset your Gatehouse password' });
    expect(await within(dialog).findByText(/This message is no longer in the outbox: it was deleted\./)).toBeTruthy();
  });

  it('deletes a message only after the confirmation', async () => {
    signInAs('admin', ['manage-license']);
    const seen = renderOutbox({
      'GET api/mail/outbox': outboxOf([RESET, SIGN_UP]),
      [`DELETE api/mail/outbox/${RESET.id}`]: [200, { message: 'Message deleted' }],
    });
    const deletes = () => seen.filter((request) => request.method === 'DELETE');
    const deleteButton = await screen.findByRole('button', { name: 'Delete the message to grace.kim@acme.example' });

    fireEvent.click(deleteButton);
    let confirm = await screen.findByRole('dialog', { name: 'Delete this message?' });
    expect(confirm.textContent).toContain(
      'Delete the message “Reset your Gatehouse password” to grace.kim@acme.example?',
    );
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deletes()).toEqual([]);

    fireEvent.click(deleteButton);
    confirm = await screen.findByRole('dialog', { name: 'Delete this message?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete message' }));
    expect(await screen.findByText('Message deleted')).toBeTruthy();
    expect(deletes().map((request) => request.url)).toEqual([`api/mail/outbox/${RESET.id}`]);
    // The list is loaded again, to show what is left.
    await waitFor(() => expect(seen.filter((request) => request.url.startsWith('api/mail/outbox?'))).toHaveLength(2));
  });

  it('says when the outbox is empty, and where mail goes once a mail server is set', async () => {
    signInAs('admin', ['manage-license']);
    renderOutbox({ 'GET api/mail/outbox': outboxOf([], true) });
    expect(await screen.findByText('The outbox is empty')).toBeTruthy();
    expect(screen.getByText('Mail is sent through your mail server, so none is kept here.')).toBeTruthy();
    expect(screen.getByText(/^A mail server is set: new mail is sent, not kept here\./)).toBeTruthy();
    expect(screen.queryByRole('grid')).toBeNull();
  });

  it('says why the list could not load', async () => {
    signInAs('admin', ['manage-license']);
    renderOutbox({
      'GET api/mail/outbox': [
        500,
        { statusCode: 500, error: 'Internal Server Error', message: 'Database unavailable' },
      ],
    });
    expect(await screen.findByText('Could not load this list: Database unavailable')).toBeTruthy();
  });

  it('is hidden from everyone but holders of the admin role, who alone may read it', async () => {
    signInAs('operator', ['manage-settings', 'manage-license', 'manage-sso-config', 'manage-kubernetes']);
    const seen = renderOutbox({ 'GET api/mail/outbox': outboxOf([RESET]) });
    expect(await screen.findByText('Missing License')).toBeTruthy();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).not.toContain('Mail outbox');
    expect(screen.queryByText('grace.kim@acme.example')).toBeNull();
    expect(seen.filter((request) => request.url.startsWith('api/mail'))).toEqual([]);
  });
});
