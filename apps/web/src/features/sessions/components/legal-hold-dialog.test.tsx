// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import type { SessionRow } from '../derive';
import { LegalHoldDialog, reasonProblem } from './legal-hold-dialog';

const ID = '6f1c1f56-2f53-4d27-9a55-0c8f4f7a0c11';
const PATH = `api/recording/${ID}/hold`;
const row = {
  id: ID,
  host: { id: null, hostname: 'web-01' },
  user: { email: 'alice@example.test' },
  started_on: '2026-11-25T10:00:00.000Z',
  ended_on: '2026-11-25T10:30:00.000Z',
  has_video: false,
  type: 'ssh',
  tunnel: 'web-01 shell',
  end_reason: 'closed',
  terminated_by: null,
  forwards: [],
  legal_hold: { held: false, by: null, at: null, reason: null },
} as unknown as SessionRow;
const held = { held: true, by: 'keeper@example.test', at: '2026-11-25T11:00:00.000Z', reason: 'Case 7' };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const reasonBox = () => screen.getByRole('textbox', { name: /Reason/ });

describe('LegalHoldDialog', () => {
  it('names the session and what the hold means, then places it with the trimmed reason', async () => {
    const seen = fakeServer({ [`PUT ${PATH}`]: [200, { message: 'Legal hold placed', legal_hold: held }] });
    const onClose = vi.fn();
    renderWithProviders(<LegalHoldDialog target={{ row, action: 'place' }} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Place a legal hold' });
    expect(within(dialog).getByText(/never removes the session of alice@example\.test on web-01/)).toBeTruthy();
    fireEvent.change(reasonBox(), { target: { value: '  Case 7: <b>subpoena</b>  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Place hold' }));
    expect(await screen.findByText('Legal hold placed: retention keeps this session.')).toBeTruthy();
    expect(seen.map((r) => [r.method, r.url.split('?')[0], r.body])).toEqual([
      ['PUT', PATH, { reason: 'Case 7: <b>subpoena</b>' }],
    ]);
    expect(onClose).toHaveBeenCalled();
  });

  it('asks for a reason before calling the server, and refuses more than one line', () => {
    const seen = fakeServer({});
    const onClose = vi.fn();
    renderWithProviders(<LegalHoldDialog target={{ row, action: 'place' }} onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'Place hold' }));
    expect(screen.getByText('Give a reason: it is kept in the audit trail.')).toBeTruthy();
    fireEvent.change(reasonBox(), { target: { value: 'ok\tnot ok' } });
    fireEvent.click(screen.getByRole('button', { name: 'Place hold' }));
    expect(
      screen.getByText('Use one line of plain text, without line breaks, tabs or control characters.'),
    ).toBeTruthy();
    expect(seen).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
    // Cancel leaves without a call.
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
    expect(seen).toEqual([]);
  });

  it('lifts with DELETE and the reason, behind a red confirming button', async () => {
    const seen = fakeServer({
      [`DELETE ${PATH}`]: [
        200,
        { message: 'Legal hold lifted', legal_hold: { held: false, by: null, at: null, reason: null } },
      ],
    });
    renderWithProviders(
      <LegalHoldDialog target={{ row: { ...row, legal_hold: held }, action: 'lift' }} onClose={vi.fn()} />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Lift the legal hold' });
    expect(within(dialog).getByText(/retention may remove the session of alice@example\.test on web-01/)).toBeTruthy();
    fireEvent.change(reasonBox(), { target: { value: 'Case 7 closed' } });
    const confirm = within(dialog).getByRole('button', { name: 'Lift hold' });
    expect(confirm.className).toMatch(/Error/);
    fireEvent.click(confirm);
    expect(await screen.findByText(/Legal hold lifted: retention may remove this session/)).toBeTruthy();
    expect(seen.map((r) => [r.method, r.body])).toEqual([['DELETE', { reason: 'Case 7 closed' }]]);
  });

  it('says when someone else changed the hold meanwhile (409), and shows a refusal’s reason', async () => {
    fakeServer({ [`PUT ${PATH}`]: [409, { statusCode: 409, error: 'Conflict', message: 'held already' }] });
    const onClose = vi.fn();
    renderWithProviders(<LegalHoldDialog target={{ row, action: 'place' }} onClose={onClose} />);
    fireEvent.change(reasonBox(), { target: { value: 'Case 8' } });
    fireEvent.click(screen.getByRole('button', { name: 'Place hold' }));
    expect(await screen.findByText('This session is on legal hold already: someone placed it meanwhile.')).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
    cleanup();
    const refusal = 'You need one of these permissions for this: manage-legal-hold.';
    fakeServer({ [`PUT ${PATH}`]: [403, { statusCode: 403, error: 'Forbidden', message: refusal }] });
    renderWithProviders(<LegalHoldDialog target={{ row, action: 'place' }} onClose={vi.fn()} />);
    fireEvent.change(reasonBox(), { target: { value: 'Case 8' } });
    fireEvent.click(screen.getByRole('button', { name: 'Place hold' }));
    expect(await screen.findByText(refusal)).toBeTruthy();
  });
});

describe('reasonProblem', () => {
  it('accepts one line of 1 to 500 characters, HTML included, and refuses the rest', () => {
    expect(reasonProblem('<script>alert(1)</script>')).toBeNull();
    expect(reasonProblem('x'.repeat(500))).toBeNull();
    expect(reasonProblem('x'.repeat(501))).toBe('tooLong');
    expect(reasonProblem('   ')).toBe('required');
    for (const bad of ['a\nb', 'a\r\nb', 'a\u0000', 'a\u202Eb', 'a\u2028b', 'a\u001b[2J'])
      expect(reasonProblem(bad)).toBe('oneLine');
  });
});
