import { describe, expect, it } from 'vitest';
import type { GeneralSettings } from '../api/general-settings';
import { toGeneralBody, toGeneralForm, validateGeneralForm } from './general-form';
import { newEndpointRow, toSecurityBody, toSecurityForm, validateSecurityForm } from './security-form';

const STORED: GeneralSettings = {
  allow_signup: false,
  smtp: { host: '', port: 587, secure: false, user: '', from: 'Gatehouse <gatehouse@localhost>', password_set: true },
  recording_input_capture: false,
  recording_retention_days: 0,
  idle_timeout_minutes: 0,
  signin_banner: '',
  public_url: '',
  ssh_handshake_timeout_seconds: 10,
  ssh_login_timeout_seconds: 60,
  ssh_max_auth_attempts: 6,
  ssh_max_unauthenticated_per_address: 10,
  ssh_max_unauthenticated: 100,
};

describe('general settings form', () => {
  it('round-trips the stored settings and keeps the stored SMTP password when none is typed', () => {
    const form = toGeneralForm(STORED);
    expect(validateGeneralForm(form)).toEqual({});
    const body = toGeneralBody({
      ...form,
      retentionDays: '90',
      idleMinutes: '15',
      publicUrl: ' https://gh.example.test ',
    });
    expect(body).toMatchObject({
      recording_retention_days: 90,
      idle_timeout_minutes: 15,
      public_url: 'https://gh.example.test',
    });
    expect(body).toMatchObject({
      ssh_handshake_timeout_seconds: 10,
      ssh_login_timeout_seconds: 60,
      ssh_max_auth_attempts: 6,
      ssh_max_unauthenticated_per_address: 10,
      ssh_max_unauthenticated: 100,
    });
    expect(body.smtp).not.toHaveProperty('password');
    expect(toGeneralBody({ ...form, smtpPassword: 's3cret' }).smtp).toHaveProperty('password', 's3cret');
  });

  it('refuses numbers out of bounds, fractions, words and non-http URLs', () => {
    const form = toGeneralForm(STORED);
    const errors = validateGeneralForm({
      ...form,
      retentionDays: '36501',
      idleMinutes: '1.5',
      smtpPort: 'abc',
      publicUrl: 'ftp://files.example.test',
      signinBanner: 'x'.repeat(2001),
    });
    expect(Object.keys(errors).sort()).toEqual([
      'idleMinutes',
      'publicUrl',
      'retentionDays',
      'signinBanner',
      'smtpPort',
    ]);
    expect(errors.retentionDays).toEqual({ key: 'settings.general.errors.range', values: { min: 0, max: 36_500 } });
    expect(errors.publicUrl).toEqual({ key: 'settings.general.errors.url' });
  });

  it('refuses SSH login limits outside the bounds the server applies, and accepts 0 per address (no cap)', () => {
    const form = toGeneralForm(STORED);
    const errors = validateGeneralForm({
      ...form,
      sshHandshakeSeconds: '0',
      sshLoginSeconds: '1',
      sshAuthAttempts: '101',
      sshPerAddress: '0',
      sshTotal: '0',
    });
    expect(Object.keys(errors).sort()).toEqual([
      'sshAuthAttempts',
      'sshHandshakeSeconds',
      'sshLoginSeconds',
      'sshTotal',
    ]);
    expect(errors.sshLoginSeconds).toEqual({ key: 'settings.general.errors.range', values: { min: 2, max: 3600 } });
    expect(toGeneralBody({ ...form, sshPerAddress: '0', sshTotal: '250' })).toMatchObject({
      ssh_max_unauthenticated_per_address: 0,
      ssh_max_unauthenticated: 250,
    });
  });
});

describe('security settings form', () => {
  const stored = {
    api_limit_single_use: true,
    api_limit_freshness: false,
    api_limit_endpoints: [{ method: 'post', path: '^/api/user$' }],
    effectiveTokenMaxAge: 43_200,
  };

  it('shows the lifetime in minutes and sends it in seconds', () => {
    const form = toSecurityForm(stored);
    expect(form.maxAgeMinutes).toBe('720');
    expect(form.endpoints.map(({ method, path }) => ({ method, path }))).toEqual([
      { method: 'POST', path: '^/api/user$' },
    ]);
    expect(toSecurityBody(form)).toEqual({
      api_limit_single_use: true,
      api_limit_freshness: false,
      api_limit_endpoints: [{ method: 'POST', path: '^/api/user$' }],
      effectiveTokenMaxAge: 43_200,
    });
  });

  it('flags each path that is empty or does not compile, and a lifetime out of bounds', () => {
    const broken = newEndpointRow('GET', '([');
    const empty = newEndpointRow('DELETE', '');
    const fine = newEndpointRow('*', '^/api/apikey');
    const errors = validateSecurityForm({
      ...toSecurityForm(stored),
      endpoints: [broken, empty, fine],
      maxAgeMinutes: '4',
    });
    expect(errors.paths[broken.id]?.key).toBe('settings.security.errors.regex');
    expect(String(errors.paths[broken.id]?.values?.reason)).toMatch(/regular expression/i);
    expect(errors.paths[empty.id]).toEqual({ key: 'settings.security.errors.pathRequired' });
    expect(errors.paths[fine.id]).toBeUndefined();
    expect(errors.maxAgeMinutes?.key).toBe('settings.security.errors.maxAge');
  });
});
