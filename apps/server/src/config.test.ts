import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration from the environment', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.adminEmail).toBeUndefined();
  });

  it('lists every invalid variable in one clear error', () => {
    const load = () =>
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        GATEHOUSE_ADMIN_EMAIL: 'not-an-email',
        GATEHOUSE_ADMIN_PASSWORD: 'short',
      });
    expect(load).toThrow(ConfigError);
    try {
      load();
    } catch (error) {
      const text = (error as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'GATEHOUSE_ADMIN_EMAIL', 'GATEHOUSE_ADMIN_PASSWORD'])
        expect(text).toContain(name);
      expect(text).toContain('at least 8 characters');
    }
  });

  it('treats empty variables as unset and lower-cases the admin email', () => {
    const config = loadConfig({ DATABASE_URL: '', GATEHOUSE_ADMIN_EMAIL: 'Root@Example.TEST', PORT: '9090' });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.adminEmail).toBe('root@example.test');
    expect(config.port).toBe(9090);
  });
});
