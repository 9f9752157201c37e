import { describe, expect, it } from 'vitest';
import { buildUrl } from './api-client';

describe('buildUrl', () => {
  it('makes contract paths relative to the page', () => {
    expect(buildUrl('/api/login')).toBe('api/login');
    expect(buildUrl('/sso')).toBe('sso');
  });

  it('sends an empty query value as a bare key', () => {
    expect(buildUrl('/api/login', undefined, { include_auth_token: '' })).toBe('api/login?include_auth_token');
  });

  it('fills and encodes path parameters', () => {
    expect(buildUrl('/api/user/{email}', { email: 'a b@x.io' })).toBe('api/user/a%20b%40x.io');
  });
});
