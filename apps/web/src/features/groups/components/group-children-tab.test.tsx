// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import { GroupChildrenTab } from './group-children-tab';

const group = (name: string, groups: string[] = []) => ({ name, users: [], agents: [], groups, created_at: '' });
const all = [group('all-staff', ['ops']), group('ops')];

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('GroupChildrenTab', () => {
  it('shows the server’s refusal naming the cycle', async () => {
    const cycle = 'Nesting refused: it would make a cycle ops → all-staff → ops. A group cannot contain itself.';
    const seen = fakeServer({
      'PUT api/group/ops/groups': [409, { statusCode: 409, error: 'Conflict', message: cycle }],
    });
    renderWithProviders(<GroupChildrenTab group={all[1]!} groups={all} canModify />);
    fireEvent.mouseDown(screen.getByLabelText('Groups to nest'));
    fireEvent.click(await screen.findByText('all-staff'));
    fireEvent.click(screen.getByRole('button', { name: 'Nest groups' }));
    expect(await screen.findByText(cycle)).toBeTruthy();
    expect(seen[0]?.body).toEqual({ groups: ['all-staff'] });
  });

  it('takes a child out with its own labelled button', async () => {
    const seen = fakeServer({ 'DELETE api/group/all-staff/group/ops': [200, { message: 'Group updated' }] });
    renderWithProviders(<GroupChildrenTab group={all[0]!} groups={all} canModify />);
    fireEvent.click(screen.getByRole('button', { name: 'Take ops out of all-staff' }));
    expect(await screen.findByText('Group taken out')).toBeTruthy();
    expect(seen[0]?.method).toBe('DELETE');
  });

  it('gives readers the list without controls', () => {
    fakeServer({});
    renderWithProviders(<GroupChildrenTab group={all[0]!} groups={all} canModify={false} />);
    expect(screen.getByText('ops')).toBeTruthy();
    expect(screen.queryByLabelText('Groups to nest')).toBeNull();
    expect(screen.queryByRole('button', { name: /take/i })).toBeNull();
  });
});
