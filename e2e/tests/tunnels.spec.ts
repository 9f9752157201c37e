import { type Page, expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, signIn } from '../fixtures.js';
import { adminToken, callApi, choose, navEntries, pick, snackbar, storedToken, unique } from '../identity-helpers.js';
import { type RunningAgent, agentHostname, killAllAgents, startAgent } from './agent-process.js';

interface Definition {
  id: string;
  name: string;
  port: number;
  users: string[];
}

let agent: RunningAgent;

test.beforeAll(async ({ request, baseURL }) => {
  const admin = await adminToken(request);
  const created = await callApi(request, admin, 'POST', '/api/apikey', { description: unique('e2e-tunnels') });
  expect(created.status()).toBe(201);
  const { key } = (await created.json()) as { key: string };
  agent = startAgent(baseURL ?? '', key, agentHostname('e2e-host-tunnels'));
  await expect
    .poll(
      async () => {
        const listed = (await (await callApi(request, admin, 'GET', '/api/agent')).json()) as {
          agents: { hostname: string; connected: boolean }[];
        };
        return listed.agents.some((a) => a.hostname === agent.hostname && a.connected);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
});

test.afterAll(killAllAgents);

/** The definition by name, as the API lists it. */
async function definition(page: Page, name: string): Promise<Definition | undefined> {
  const answer = await callApi(page.request, await storedToken(page), 'GET', '/api/tunneldefinition/all');
  const lists = (await answer.json()) as Record<string, Definition[]>;
  return Object.values(lists)
    .flat()
    .find((d) => d.name === name);
}

function tunnelRow(page: Page, name: string) {
  return page.getByRole('row', { name: new RegExp(name) });
}

test.describe('tunnels', () => {
  test('an administrator creates an ssh definition, sees its public key, edits it, admits a user and deletes it', async ({
    page,
  }) => {
    const name = unique('e2e-ssh');
    await signIn(page, ACCOUNTS.admin, '/tunnels');
    await expect(page.getByRole('heading', { level: 1, name: 'Tunnels' })).toBeVisible();
    await expect(page.getByRole('tab', { name: /^SSH \(\d+\)$/ })).toHaveAttribute('aria-selected', 'true');

    await page.getByRole('button', { name: 'Create tunnel' }).first().click();
    const form = page.getByRole('dialog', { name: 'Create tunnel' });
    await form.getByLabel('Name', { exact: true }).fill(name);
    await choose(page, form.getByLabel('Host', { exact: true }), `${agent.hostname} (connected)`);
    await expect(form.getByLabel('Port', { exact: true })).toHaveValue('22');
    await form.getByLabel('Login on the host').fill('deploy');
    await expect(form.getByRole('radio', { name: 'Generated key pair' })).toBeChecked();
    await form.getByRole('button', { name: 'Create tunnel' }).click();
    await expect(snackbar(page)).toHaveText('Tunnel created');

    const shown = page.getByRole('dialog', { name: `Public key of ${name}` });
    await expect(shown.getByLabel('Public key')).toHaveValue(/^ssh-ed25519 \S+ gatehouse-deploy$/);
    await expect(shown).toContainText(`~/.ssh/authorized_keys of the user deploy on ${agent.hostname}`);
    await expect(shown.getByLabel('Command')).toHaveValue(/^sudo -H -u deploy sh -c .*>> ~\/\.ssh\/authorized_keys"$/);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/tunnels-public-key-en-dark.png` });
    await shown.getByRole('button', { name: 'Close' }).click();
    await expect(tunnelRow(page, name)).toContainText(agent.hostname);
    await expect(tunnelRow(page, name)).toContainText('Key pair');

    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${name}` });
    await expect(edit.getByLabel('Type')).toHaveCount(0);
    await edit.getByLabel('Port', { exact: true }).fill('2222');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit).toBeHidden();
    await expect(snackbar(page)).toHaveText('Tunnel updated');
    await expect(tunnelRow(page, name)).toContainText('2222');
    expect((await definition(page, name))?.port).toBe(2222);

    await page.getByRole('button', { name: `Users of ${name}` }).click();
    const users = page.getByRole('dialog', { name: `Users of ${name}` });
    await pick(page, users.getByLabel('Users', { exact: true }), ['emma.rossi']);
    await users.getByRole('button', { name: 'Save users' }).click();
    await expect(users).toBeHidden();
    await expect(snackbar(page)).toHaveText('Tunnel updated');
    expect((await definition(page, name))?.users).toHaveLength(1);

    await page.getByRole('tab', { name: /^All \(\d+\)$/ }).click();
    await expect(tunnelRow(page, name)).toBeVisible();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/tunnels-tabs-en-dark.png` });
    await page.getByRole('button', { name: /change language/i }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await expect(page.getByRole('tab', { name: /^الكل \(\d+\)$/ })).toBeVisible();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/tunnels-tabs-ar-dark.png` });
    await page.getByRole('button', { name: /change language|تغيير اللغة/i }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();

    await page.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete tunnel?' });
    await expect(confirm).toContainText(`Delete the tunnel ${name} to ${agent.hostname}?`);
    await confirm.getByRole('button', { name: 'Delete tunnel' }).click();
    await expect(snackbar(page)).toHaveText('Tunnel deleted');
    await expect(tunnelRow(page, name)).toHaveCount(0);
    expect(await definition(page, name)).toBeUndefined();
  });

  test('a holder of list-host alone has no Tunnels entry and the server refuses the full list', async ({ page }) => {
    await signIn(page, ACCOUNTS.hostViewer, '/hosts');
    const entries = await navEntries(page);
    expect(entries).toContain('Agents');
    expect(entries).not.toContain('Tunnels');
    const refused = await callApi(page.request, await storedToken(page), 'GET', '/api/tunneldefinition/all');
    expect(refused.status()).toBe(403);
  });
});
