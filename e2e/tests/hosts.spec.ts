import { type Page, expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, signIn } from '../fixtures.js';
import { adminToken, callApi, snackbar, storedToken, unique } from '../identity-helpers.js';
import { agentHostname, appliedConfig, killAllAgents, startAgent } from './agent-process.js';

test.afterAll(killAllAgents);

/** The agents grid's row of a host. */
function hostRow(page: Page, hostname: string) {
  return page.getByRole('grid', { name: 'Agents' }).getByRole('row', { name: new RegExp(hostname) });
}

test.describe('agents', () => {
  test('an administrator adds a real host with the console’s command, configures it live, sees it drop and deletes it', async ({
    page,
    baseURL,
  }) => {
    const server = baseURL ?? '';
    await signIn(page, ACCOUNTS.admin, '/hosts');
    await expect(page.getByRole('heading', { level: 1, name: 'Agents' })).toBeVisible();

    // Add host: generate a key right in the dialog and read the command it shows.
    await page.getByRole('button', { name: 'Add host' }).first().click();
    const add = page.getByRole('dialog', { name: 'Add host' });
    await add.getByLabel('Key description').fill(unique('e2e-hosts'));
    await add.getByRole('button', { name: 'Generate key' }).click();
    await expect(snackbar(page)).toHaveText('Registration key created');
    const command = await add.getByLabel('Agent command').inputValue();
    const match = /^npx gatehouse-agent --server (\S+) --key (ghk_\S+) --state-dir \/var\/lib\/gatehouse-agent$/.exec(
      command,
    );
    expect(match?.[1]).toBe(server);
    const key = match?.[2] ?? '';
    await expect(add.getByLabel('Environment variables')).toHaveValue(
      `export GATEHOUSE_SERVER=${server}\nexport GATEHOUSE_REGISTRATION_KEY=${key}\n` +
        'export GATEHOUSE_AGENT_STATE_DIR=/var/lib/gatehouse-agent\nnpx gatehouse-agent',
    );
    await expect(add.getByText('Waiting for the new host to connect…')).toBeVisible();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/hosts-add-dialog-en-dark.png` });

    // Run the real agent with what the console showed; the dialog sees it join, live.
    const agent = startAgent(match?.[1] ?? '', key, agentHostname());
    await expect(add.getByText(`${agent.hostname} has joined and is connected.`)).toBeVisible({ timeout: 20_000 });
    await add.getByRole('button', { name: 'Done' }).click();
    await expect(hostRow(page, agent.hostname)).toContainText('Connected');
    await expect(hostRow(page, agent.hostname)).toContainText('Linux');
    await expect(hostRow(page, agent.hostname)).toContainText('2.0.0');
    await page.getByLabel('Search hosts').fill(agent.hostname);
    await expect(page.getByRole('grid', { name: 'Agents' }).getByRole('row')).toHaveCount(2);
    await page.getByLabel('Search hosts').fill('');
    await page.screenshot({ path: `${SCREENS}/hosts-list-connected-en-dark.png` });

    // Configure: DEBUG and a whitelist with a trailing comma; the agent writes what it applied.
    await page.getByRole('button', { name: `Configure ${agent.hostname}` }).click();
    const config = page.getByRole('dialog', { name: `Configuration of ${agent.hostname}` });
    await expect(config.getByLabel('Bitrate')).toHaveValue('2');
    await expect(config.getByText('Default: ERROR')).toBeVisible();
    await config.getByLabel('Log level').click();
    await page.getByRole('option', { name: 'DEBUG' }).click();
    await config.getByLabel('Whitelisted ports').fill('22, 70000');
    await config.getByRole('button', { name: 'Save configuration' }).click();
    await expect(
      config.getByText('“70000” is not a port: use whole numbers from 1 to 65535, separated by commas.'),
    ).toBeVisible();
    await config.getByLabel('Whitelisted ports').fill('22, 8080,');
    await config.getByLabel('Bitrate').fill('3.5');
    await page.screenshot({ path: `${SCREENS}/hosts-config-dialog-en-dark.png` });
    await config.getByRole('button', { name: 'Save configuration' }).click();
    await expect(snackbar(page)).toHaveText('Configuration saved. It is applied on the host.');
    await expect
      .poll(() => appliedConfig(agent), { timeout: 10_000 })
      .toMatchObject({ loglevel: 'DEBUG', whitelist: [22, 8080], recording_bitrate: '3500k' });

    // The host dies without a word: the list says so within 15 s, without a reload.
    agent.child.kill('SIGKILL');
    await expect(hostRow(page, agent.hostname)).toContainText('Disconnected', { timeout: 15_000 });

    await page.getByRole('button', { name: `Delete ${agent.hostname}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete host?' });
    await expect(confirm).toContainText(`Delete the host ${agent.hostname}?`);
    await confirm.getByRole('button', { name: 'Delete host' }).click();
    await expect(snackbar(page)).toHaveText('Host Deleted');
    await expect(hostRow(page, agent.hostname)).toHaveCount(0);
  });

  test('a holder of list-host alone sees hosts read-only, and the server refuses a config change', async ({ page }) => {
    const admin = await adminToken(page.request);
    const agents = (await (await callApi(page.request, admin, 'GET', '/api/agent')).json()) as {
      agents: { id: string; hostname: string }[];
    };
    const host = agents.agents[0];
    expect(host, 'the demo enrols hosts').toBeDefined();
    await signIn(page, ACCOUNTS.hostViewer, '/hosts');
    await expect(hostRow(page, host?.hostname ?? '')).toContainText('Disconnected');
    await expect(page.getByRole('button', { name: `Delete ${host?.hostname ?? ''}` })).toHaveCount(0);
    await page.getByRole('button', { name: `Configure ${host?.hostname ?? ''}` }).click();
    const config = page.getByRole('dialog', { name: `Configuration of ${host?.hostname ?? ''}` });
    await expect(config.getByText(/needs the modify-agent-config permission/)).toBeVisible();
    await expect(config.getByRole('button', { name: 'Save configuration' })).toHaveCount(0);
    await expect(config.getByLabel('Whitelisted ports')).toHaveAttribute('readonly', '');
    const token = await storedToken(page);
    const refused = await callApi(page.request, token, 'POST', `/api/agent/${host?.id ?? ''}/config`, {
      loglevel: 'DEBUG',
    });
    expect(refused.status()).toBe(403);
    await config.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: /change language/i }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('الوكلاء');
    await expect(page.getByRole('row', { name: new RegExp(host?.hostname ?? '') })).toContainText('غير متصل');
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/hosts-list-ar-dark.png` });
  });
});
