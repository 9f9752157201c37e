import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(REPO, file), 'utf8')) as Record<string, unknown>;

/**
 * `npx gatehouse-agent` and `npx gatehouse` in a clone (issue 17): npx runs a command that
 * node_modules/.bin holds before it ever asks the registry, and npm ci links both there from the
 * workspace (committed launchers, so before any build). An unrelated registry package called
 * gatehouse must never be what runs.
 */
describe('the gatehouse and gatehouse-agent commands of a clone', () => {
  const agent = read('apps/agent/package.json') as { version: string; bin: Record<string, string> };
  const root = read('package.json') as { workspaces: string[]; dependencies: Record<string, string> };
  const lock = read('package-lock.json') as { packages: Record<string, { link?: boolean; resolved?: string }> };

  it('come from the workspace: linked by npm ci from committed, executable launchers', () => {
    expect(root.workspaces).toContain('apps/agent');
    // The root depends on the workspace's own version: npm links the workspace, never a download.
    expect(root.dependencies['@gatehouse/agent']).toBe(agent.version);
    expect(lock.packages['node_modules/@gatehouse/agent']).toEqual({ resolved: 'apps/agent', link: true });
    // No package of either name is locked from the registry.
    expect(lock.packages['node_modules/gatehouse']).toBeUndefined();
    expect(lock.packages['node_modules/gatehouse-agent']).toBeUndefined();
    expect(Object.keys(agent.bin).sort()).toEqual(['gatehouse', 'gatehouse-agent']);
    const tracked = execFileSync('git', ['ls-files', '-s', 'apps/agent/bin'], { cwd: REPO, encoding: 'utf8' });
    for (const [name, target] of Object.entries(agent.bin)) {
      const file = path.join('apps/agent', target);
      expect(tracked, `${file} is committed and executable`).toContain(`100755`);
      expect(tracked).toContain(file);
      expect(fs.readFileSync(path.join(REPO, file), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
      expect(fs.realpathSync(path.join(REPO, 'node_modules/.bin', name))).toBe(path.join(REPO, file));
    }
  });

  it('run through npx offline (a registry lookup would fail), from the repository', () => {
    const env = { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false' };
    const version = spawnSync('npx', ['--offline', 'gatehouse-agent', '--version'], {
      cwd: REPO,
      env,
      encoding: 'utf8',
    });
    expect(version.stderr).not.toMatch(/ENOTCACHED|registry/);
    expect(version.stdout.trim()).toBe(agent.version);
    const help = spawnSync('npx', ['--offline', 'gatehouse', '--help'], { cwd: REPO, env, encoding: 'utf8' });
    expect(help.stderr + help.stdout).toContain('gatehouse tunnel');
  }, 30_000);
});
