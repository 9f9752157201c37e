// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { signIn, signOut, updateUser } from './session';
import { enrolmentDone, requireEnrolment, useMustEnrol } from './two-factor-gate';
import { renderHook } from '@testing-library/react';

const user = {
  email: 'member@example.test',
  username: 'member@example.test',
  name: 'Member',
  roles: [],
  effectivePermissions: [],
};

afterEach(() => {
  enrolmentDone();
  signOut();
});

describe('the two-factor enrolment gate', () => {
  it('stays raised when the same session gets fresh details, and falls with a new session or a sign-out', () => {
    signIn('token-1', user as never);
    const { result, rerender } = renderHook(() => useMustEnrol());
    requireEnrolment();
    rerender();
    expect(result.current).toBe(true);
    // /api/me answered after the first refusal: the same session, fresh details.
    updateUser({ name: 'Member Renamed' });
    rerender();
    expect(result.current).toBe(true);
    signOut();
    rerender();
    expect(result.current).toBe(false);
    signIn('token-2', user as never);
    requireEnrolment();
    signIn('token-3', user as never);
    rerender();
    expect(result.current).toBe(false);
  });
});
