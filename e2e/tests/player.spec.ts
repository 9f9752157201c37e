import fs from 'node:fs/promises';
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, signIn } from '../fixtures.js';
import { adminToken, callApi } from '../identity-helpers.js';
import { killAllAgents } from './agent-process.js';
import { type Gateway, newestRecordingId, startGateway } from './gateway-helpers.js';

// Sessions made by the real gateway: OpenSSH ssh -tt → the server's SSH port → a real agent → sshd.
let gw: Gateway;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request, baseURL }) => {
  test.setTimeout(90_000);
  gw = await startGateway(request, baseURL ?? '', 'e2e-player');
});

test.afterAll(() => {
  gw?.stop();
  killAllAgents();
});

/** The text rows xterm.js draws in a terminal region of the page. */
function screen(page: Page, testId: 'live-terminal' | 'replay-terminal') {
  return page.getByTestId(testId).locator('.xterm-rows');
}

/** The id of the test user's live session, once the gateway has recorded it. */
async function liveSessionId(request: APIRequestContext): Promise<string> {
  const admin = await adminToken(request);
  let id = '';
  await expect
    .poll(
      async () => {
        const res = await callApi(
          request,
          admin,
          'GET',
          `/api/recording?live=true&user=${encodeURIComponent(gw.user.email)}`,
        );
        id = ((await res.json()) as { recordings: { id: string }[] }).recordings[0]?.id ?? '';
        return id;
      },
      { timeout: 20_000, message: 'the gateway records the session' },
    )
    .not.toBe('');
  return id;
}

/** Paths of cast requests the page makes, with their Range headers. */
function watchCastRequests(page: Page) {
  const seen: { url: string; range: string | undefined }[] = [];
  page.on('request', (request) => {
    if (/\/api\/recording\/[^/]+\/cast/.test(request.url()))
      seen.push({ url: request.url(), range: request.headers().range });
  });
  return seen;
}

test.describe('session players', () => {
  test('the live view shows what the ssh client types within a second; the replay shows the same text', async ({
    page,
    request,
  }) => {
    const shell = gw.ssh('', { interactive: true });
    const id = await liveSessionId(request);
    const mark = Date.now().toString(36);

    await signIn(page, ACCOUNTS.admin);
    await page.goto(`/#/recordings/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: `Session on ${gw.hostname}` })).toBeVisible();
    await expect(page.getByTestId('recording-facts')).toContainText(gw.user.email);
    await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'live');

    // Warm up (the shell's first prompt, fonts), then measure one command from keystroke to screen.
    shell.child.stdin?.write(`echo warm${mark}\n`);
    await expect(screen(page, 'live-terminal')).toContainText(`warm${mark}`, { timeout: 15_000 });
    const typed = `typed${mark}`;
    shell.child.stdin?.write(`echo ${typed}$((6*7))\n`);
    await expect(screen(page, 'live-terminal')).toContainText(`${typed}42`, { timeout: 1_000 });
    await page.screenshot({ path: `${SCREENS}/player-live-en-dark.png` });

    // The live session's replay from the start is one tab away and already shows what was typed.
    await page.getByRole('tab', { name: 'Replay from the start' }).click();
    await expect(page).toHaveURL(/view=replay/);
    await expect(page.getByTestId('replay-player')).toBeVisible();
    await page.getByRole('tab', { name: 'Live' }).click();
    await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'live');
    await expect(screen(page, 'live-terminal')).toContainText(`${typed}42`);

    shell.child.stdin?.write('exit\n');
    await shell.done;
    await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'ended', { timeout: 10_000 });

    // The finished session replays: streamed in ranges, played at 8x, with the same text.
    const casts = watchCastRequests(page);
    await page.reload();
    const player = page.getByTestId('replay-player');
    await expect(player).toBeVisible();
    await expect(page.getByTestId('integrity')).toHaveAttribute('data-status', 'intact', { timeout: 15_000 });
    // At 1440x900 the controls are above the fold: play, the seek bar, the time and the speed.
    for (const control of [
      player.getByRole('button', { name: 'Play', exact: true }),
      player.getByRole('slider'),
      page.getByTestId('replay-time'),
      page.getByLabel('Speed'),
    ]) {
      const box = await control.boundingBox();
      expect((box?.y ?? Infinity) + (box?.height ?? 0)).toBeLessThanOrEqual(900);
    }
    await page.getByLabel('Speed').click();
    await page.getByRole('option', { name: '8×' }).click();
    await player.getByRole('button', { name: 'Play', exact: true }).click();
    await expect(screen(page, 'replay-terminal')).toContainText(`${typed}42`, { timeout: 20_000 });
    await expect(screen(page, 'replay-terminal')).toContainText(`warm${mark}`);
    await expect(page.getByTestId('replay-phase')).toHaveText('Finished', { timeout: 20_000 });
    expect(casts.length).toBeGreaterThan(0);
    for (const cast of casts) expect(cast.range, `${cast.url} asks for a range`).toMatch(/^bytes=\d+-\d+$/);
    await page.screenshot({ path: `${SCREENS}/player-replay-en-dark.png` });

    // Keyboard: Home goes to the start (the screen is rebuilt empty), space plays.
    await player.focus();
    await page.keyboard.press('Home');
    await expect(page.getByTestId('replay-time')).toHaveText(/^0:00 \//);
    await expect(screen(page, 'replay-terminal')).not.toContainText(`${typed}42`);
    await page.keyboard.press('Space');
    await expect(player.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
    await page.keyboard.press('Space');
    await expect(player.getByRole('button', { name: 'Play', exact: true })).toBeVisible();

    // Search lists where the text appears; a hit jumps there and shows it.
    await page.keyboard.press('Home');
    await expect(screen(page, 'replay-terminal')).not.toContainText(`${typed}42`);
    await player.getByLabel('Search in the recording').fill(`${typed}42`);
    const hit = player.getByRole('button', { name: /^Go to \d+:\d\d$/ }).first();
    await expect(hit).toBeVisible();
    await expect(player.getByRole('status').filter({ hasText: /\d+ matches/ })).toBeVisible();
    await hit.click();
    await expect(screen(page, 'replay-terminal')).toContainText(`${typed}42`);

    // Download as asciicast v2 (a ticket link), with the typed text in its events.
    const download = page.waitForEvent('download');
    await player.getByRole('button', { name: 'Download (asciicast)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.cast$/);
    const [header, ...events] = (await fs.readFile((await file.path()) ?? '', 'utf8')).trim().split('\n');
    expect(JSON.parse(header ?? '{}')).toMatchObject({ version: 2 });
    expect(events.join('\n')).toContain(`${typed}42`);
  });

  test('a large session draws its first frame from the first ranges and its end after a seek', async ({
    page,
    request,
  }) => {
    const run = await gw.ssh('seq 1 300000; echo big-end-$((6*7))').done;
    expect(run.stdout).toContain('big-end-42');
    const admin = await adminToken(request);
    const id = await newestRecordingId(request, gw.user.email);
    const detail = (await (await callApi(request, admin, 'GET', `/api/recording/${id}/data`)).json()) as {
      bytes: number;
    };
    expect(detail.bytes).toBeGreaterThan(1024 * 1024);
    const casts = watchCastRequests(page);
    const received: number[] = [];
    page.on('response', (response) => {
      if (/\/cast/.test(response.url())) received.push(Number(response.headers()['content-length'] ?? 0));
    });
    await signIn(page, ACCOUNTS.admin);
    await page.goto(`/#/recordings/${id}`);
    const player = page.getByTestId('replay-player');
    await expect(player.getByRole('button', { name: 'Play', exact: true })).toBeEnabled({ timeout: 15_000 });
    // Ready to play with a fraction of the file; playing draws output at once.
    expect(received.reduce((sum, n) => sum + n, 0)).toBeLessThan(detail.bytes / 2);
    await player.getByRole('button', { name: 'Play', exact: true }).click();
    await expect(screen(page, 'replay-terminal')).toContainText(/\d{4}/);
    // End: the server finds the last event's offset; the screen is rebuilt from the bytes before it.
    await player.focus();
    await page.keyboard.press('End');
    await expect(screen(page, 'replay-terminal')).toContainText('big-end-42');
    await expect(screen(page, 'replay-terminal')).toContainText('299999');
    await expect(screen(page, 'replay-terminal')).not.toContainText('150000');
    for (const cast of casts) expect(cast.range).toMatch(/^bytes=\d+-\d+$/);
  });

  test('a day-long recording plays before it has downloaded and seeks to any hour', async ({ page, request }) => {
    const admin = await adminToken(request);
    const res = await callApi(request, admin, 'GET', '/api/recording?type=ssh&live=false&min_duration=86400&limit=1');
    const long = ((await res.json()) as { recordings: { id: string }[] }).recordings[0];
    test.skip(!long, 'the demo data has no finished SSH session of 24 hours or more');
    const detail = (await (await callApi(request, admin, 'GET', `/api/recording/${long?.id ?? ''}/data`)).json()) as {
      bytes: number;
    };
    const casts = watchCastRequests(page);
    const bytes: number[] = [];
    page.on('response', (response) => {
      if (/\/cast/.test(response.url())) bytes.push(Number(response.headers()['content-length'] ?? 0));
    });
    await signIn(page, ACCOUNTS.admin);
    await page.goto(`/#/recordings/${long?.id ?? ''}`);
    const player = page.getByTestId('replay-player');
    await expect(player.getByRole('button', { name: 'Play', exact: true })).toBeEnabled({ timeout: 15_000 });
    await expect(page.getByTestId('replay-time')).toHaveText(/^0:00 \/ (2[4-9]|[3-9]\d):\d\d:\d\d$/);
    // The first frame came from the first window, not the whole file.
    const firstBytes = bytes.reduce((sum, n) => sum + n, 0);
    expect(firstBytes).toBeLessThan(Math.max(600 * 1024, detail.bytes / 2));

    // Seek to several hours; the player reports each seek's time (request to rebuilt screen).
    const seeks: string[] = [];
    for (const target of ['20:00:00', '1:00:00', '12:30:00', '23:59:00']) {
      await player.evaluate((element) => element.removeAttribute('data-seek-ms'));
      await player.getByLabel('Jump to').fill(target);
      await player.getByRole('button', { name: 'Go', exact: true }).click();
      await expect(page.getByTestId('replay-time')).toHaveText(new RegExp(`^${target} /`));
      await expect(player).toHaveAttribute('data-seek-ms', /^\d+$/);
      seeks.push(`${target}: ${(await player.getAttribute('data-seek-ms')) ?? ''} ms`);
    }
    test
      .info()
      .annotations.push(
        { type: 'seek times', description: seeks.join(', ') },
        { type: 'bytes before the first frame', description: `${String(firstBytes)} of ${String(detail.bytes)}` },
      );
    await expect(screen(page, 'replay-terminal')).not.toHaveText('');
    for (const cast of casts) expect(cast.range).toMatch(/^bytes=\d+-\d+$/);
    await page.screenshot({ path: `${SCREENS}/player-long-seek-en-dark.png` });
  });

  test('an RDP session plays its video from ranges, with seek, speed and download', async ({ page, request }) => {
    const admin = await adminToken(request);
    const res = await callApi(request, admin, 'GET', '/api/recording?type=rdp&live=false&limit=200');
    const rdp = ((await res.json()) as { recordings: { id: string; has_video: boolean }[] }).recordings.find(
      (r) => r.has_video,
    );
    test.skip(!rdp, 'the demo data has no finished RDP session with a video (ffmpeg was missing)');
    const playback = (await (
      await callApi(request, admin, 'GET', `/api/recording/${rdp?.id ?? ''}/playback_available`)
    ).json()) as { available: boolean; video_bytes: number };
    expect(playback.available).toBe(true);
    const ranges: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/recording\/[^/]+\/video\?ticket=/.test(r.url())) ranges.push(r.headers().range ?? '');
    });
    await signIn(page, ACCOUNTS.admin);
    await page.goto(`/#/recordings/${rdp?.id ?? ''}`);
    const video = page.getByTestId('video-player');
    await expect(video).toHaveAttribute('src', /\/video\?ticket=/);
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(1);
    const duration = await video.evaluate((v: HTMLVideoElement) => v.duration);
    expect(duration).toBeGreaterThan(1);
    // Seeking asks the server for a range and lands where asked.
    await video.evaluate((v: HTMLVideoElement, t) => (v.currentTime = t), duration / 2);
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => (v.seeking ? -1 : v.currentTime)))
      .toBeCloseTo(duration / 2, 0);
    expect(ranges.some((range) => /^bytes=\d+-/.test(range))).toBe(true);
    await page.getByLabel('Speed').click();
    await page.getByRole('option', { name: '2×' }).click();
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.playbackRate)).toBe(2);
    // The video (with the browser's controls along its bottom) ends above the fold at 900 px.
    const frame = await video.boundingBox();
    expect((frame?.y ?? Infinity) + (frame?.height ?? 0)).toBeLessThanOrEqual(900);
    // The facts never run into each other: the user's email is cut with an ellipsis, whole in its tooltip.
    const facts = page.getByTestId('recording-facts').locator('dt, dd');
    const boxes = await Promise.all((await facts.all()).map((fact) => fact.boundingBox()));
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1))
        if (a && b)
          expect(
            a.x + a.width <= b.x + 0.5 || b.x + b.width <= a.x + 0.5 || a.y + a.height <= b.y || b.y + b.height <= a.y,
            'two facts overlap',
          ).toBe(true);
    await page.screenshot({ path: `${SCREENS}/player-video-en-dark.png` });

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download video' }).click();
    const file = await download;
    const bytes = await fs.readFile((await file.path()) ?? '');
    expect(bytes.length).toBe(playback.video_bytes);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  test('a search hit in a recording starts at a word and marks the match; printed markup stays text', async ({
    page,
    request,
  }) => {
    const run = await gw.ssh(
      `echo 'prefix-words-to-cut-0123456789-abcdefghij more words <img src=x onerror="window.__pwned=1"> xss-probe-42 and after'`,
    ).done;
    expect(run.stdout).toContain('xss-probe-42');
    const id = await newestRecordingId(request, gw.user.email);
    await signIn(page, ACCOUNTS.admin);
    await page.goto(`/#/recordings/${id}`);
    const player = page.getByTestId('replay-player');
    await player.getByLabel('Search in the recording').fill('XSS-PROBE-42');
    const snippet = player.getByTestId('hit-snippet').first();
    await expect(snippet.locator('mark')).toHaveText('xss-probe-42');
    // Cut at a word (40 characters before the match is the space after "words"), with an ellipsis; the markup is text.
    // (The first hit may be the command line the terminal echoed, with its closing quote.)
    await expect(snippet).toHaveText(/^… <img src=x onerror="window\.__pwned=1"> xss-probe-42 and after'?$/);
    await expect(player.locator('img')).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.screenshot({ path: `${SCREENS}/player-search-hit-en-dark.png` });
  });

  test('reads in Arabic, right to left, with the terminal left to right', async ({ page, request }) => {
    const run = await gw.ssh('echo arabic-check-$((6*7))').done;
    expect(run.stdout).toContain('arabic-check-42');
    const id = await newestRecordingId(request, gw.user.email);
    await signIn(page, ACCOUNTS.admin, '/recordings');
    await page.evaluate(() => localStorage.setItem('locale', 'ar'));
    await page.goto(`/?theme_mode=light#/recordings/${id}`);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByTestId('replay-terminal')).toHaveAttribute('dir', 'ltr');
    await expect(page.getByTestId('replay-player').getByRole('button', { name: 'تشغيل' })).toBeEnabled();
    await page.getByTestId('replay-player').getByRole('button', { name: 'تشغيل' }).click();
    await expect(screen(page, 'replay-terminal')).toContainText('arabic-check-42', { timeout: 15_000 });
    await page.screenshot({ path: `${SCREENS}/player-replay-ar-light.png` });
    await page.evaluate(() => localStorage.setItem('locale', 'en'));
  });
});
