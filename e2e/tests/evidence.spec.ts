import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, signIn } from '../fixtures.js';
import { adminToken, callApi } from '../identity-helpers.js';
import { killAllAgents } from './agent-process.js';
import { type Gateway, gatewayPort, startGateway } from './gateway-helpers.js';

// The "done when", tried as an auditor would, with the real clients: OpenSSH sftp through the
// gateway, the console in Chromium, and `gatehouse verify` run as a separate process.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const GATEHOUSE = path.join(ROOT, 'apps/agent/bin/gatehouse.mjs');
const DATA_DIR = path.join(ROOT, `e2e/.data-${process.env.E2E_PORT ?? '18480'}`);

let gw: Gateway;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request, baseURL }) => {
  test.setTimeout(90_000);
  gw = await startGateway(request, baseURL ?? '', 'e2e-evidence');
});

test.afterAll(() => {
  gw?.stop();
  killAllAgents();
});

function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The newest finished session of the test user. */
async function newestFinished(request: APIRequestContext): Promise<string> {
  const admin = await adminToken(request);
  let id = '';
  await expect
    .poll(
      async () => {
        const res = await callApi(
          request,
          admin,
          'GET',
          `/api/recording?live=false&user=${encodeURIComponent(gw.user.email)}&limit=1`,
        );
        id = ((await res.json()) as { recordings: { id: string }[] }).recordings[0]?.id ?? '';
        return id;
      },
      { timeout: 20_000, message: 'the sftp session is recorded and finished' },
    )
    .not.toBe('');
  return id;
}

/** The cast file of a recording in the e2e server's data folder. */
async function castFile(id: string): Promise<string> {
  const years = await fs.readdir(path.join(DATA_DIR, 'recordings'));
  for (const year of years)
    for (const month of await fs.readdir(path.join(DATA_DIR, 'recordings', year))) {
      const file = path.join(DATA_DIR, 'recordings', year, month, `${id}.cast`);
      if (await fs.stat(file).catch(() => undefined)) return file;
    }
  throw new Error(`no cast file for ${id}`);
}

test('an auditor verifies a bundle offline with the fingerprint from Settings, finds the session that moved a file, and a forged recording is called tampered', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  // A user uploads backup.sql with OpenSSH sftp through the gateway.
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'gh-e2e-evidence-'));
  await fs.chmod(work, 0o777);
  const local = path.join(work, 'backup.sql');
  const content = `-- dump ${Date.now()}\n${'INSERT INTO t VALUES (1);\n'.repeat(4000)}`;
  await fs.writeFile(local, content);
  const remote = path.join(work, 'uploaded-backup.sql');
  await fs.writeFile(path.join(work, 'batch'), `put ${local} ${remote}\n`);
  const sftp = await run('sftp', [
    ...['-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'BatchMode=yes'],
    ...['-o', 'IdentitiesOnly=yes', '-o', 'LogLevel=ERROR'],
    ...['-b', path.join(work, 'batch'), '-P', String(gatewayPort()), '-i', gw.user.keyFile],
    `${gw.user.email}@${gw.hostname}@127.0.0.1`,
  ]);
  expect(sftp.code, sftp.stderr).toBe(0);
  expect(await fs.readFile(remote, 'utf8')).toBe(content);
  const sha256 = createHash('sha256').update(content).digest('hex');
  const id = await newestFinished(request);

  // 1. The fingerprint, from Settings → Recording signatures.
  await signIn(page, ACCOUNTS.admin, '/settings?section=signatures');
  const fingerprintField = page.getByRole('textbox', { name: 'Fingerprint' });
  await expect(fingerprintField).toHaveValue(/^SHA256:[A-Za-z0-9+/]{43}$/, { timeout: 15_000 });
  const fingerprint = await fingerprintField.inputValue();
  await page.screenshot({ path: `${SCREENS}/settings-signatures-en.png` });

  // 2. The session's detail: kind sftp, the transfer with its SHA-256, and the evidence bundle.
  await page.goto(`/#/recordings?q=${gw.hostname}`);
  await page.locator(`.MuiDataGrid-row[data-id="${id}"] [data-field="hostname"]`).click();
  const detail = page.getByRole('dialog', { name: 'Session detail' });
  await expect(detail.getByText('File transfers')).toBeVisible({ timeout: 15_000 });
  await expect(detail.getByText(remote)).toBeVisible();
  await expect(detail.getByText(sha256, { exact: false })).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/sessions-detail-transfers-en.png` });
  const download = page.waitForEvent('download');
  await detail.getByRole('button', { name: 'Download evidence bundle' }).click();
  const bundle = path.join(work, (await download).suggestedFilename());
  expect(path.basename(bundle)).toBe(`gatehouse-session-${id}.tar`);
  await (await download).saveAs(bundle);

  // 3. Offline, with only the fingerprint: intact.
  const intact = await run(process.execPath, [GATEHOUSE, 'verify', bundle, '--key', fingerprint]);
  expect(intact.stdout + intact.stderr).toContain('INTACT');
  expect(intact.code).toBe(0);

  // 4. Every session that touched the file, across all recordings; a hit opens the player.
  await page.goto('/#/recordings/search');
  const field = page.getByRole('textbox', { name: 'Text to find' });
  await expect(async () => {
    await field.fill('uploaded-backup.sql');
    await field.press('Enter');
    await expect(page.getByRole('button', { name: new RegExp(`^Open the session on ${gw.hostname} at`) })).toBeVisible({
      timeout: 3000,
    });
  }).toPass({ timeout: 30_000 });
  await page.screenshot({ path: `${SCREENS}/recording-search-en.png` });
  await page
    .getByRole('button', { name: new RegExp(`^Open the session on ${gw.hostname} at`) })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`#/recordings/${id}`));

  // 5. Forged on disk (same length, one path changed): the console and the command say tampered.
  const cast = await castFile(id);
  const original = await fs.readFile(cast, 'latin1');
  expect(original).toContain('uploaded-backup.sql');
  await fs.writeFile(cast, original.replace('uploaded-backup.sql', 'uploaded-harmless.x'), 'latin1');
  await page.goto(`/#/recordings/${id}`);
  await expect(page.getByTestId('integrity')).toHaveAttribute('data-status', 'tampered', { timeout: 15_000 });
  await page.screenshot({ path: `${SCREENS}/player-tampered-en.png` });
  const forged = path.join(work, 'forged.tar');
  const res = await callApi(request, await adminToken(request), 'GET', `/api/recording/${id}/bundle`);
  expect(res.status()).toBe(200);
  await fs.writeFile(forged, await res.body());
  const tampered = await run(process.execPath, [GATEHOUSE, 'verify', forged, '--key', fingerprint]);
  expect(tampered.stdout + tampered.stderr).toContain('TAMPERED');
  expect(tampered.code).toBe(1);
  await fs.rm(work, { recursive: true, force: true });
});
