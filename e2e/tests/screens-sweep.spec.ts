import { type Page, expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, mainNav, signIn } from '../fixtures.js';
import { adminToken, callApi } from '../identity-helpers.js';
import { killAllAgents } from './agent-process.js';
import { type Gateway, newestRecordingId, startGateway } from './gateway-helpers.js';
import { createUser } from './users-api.js';

/**
 * Every screen the navigation gives an administrator and a plain user (role user only), at a
 * laptop's and a phone's size (and at 1280 and 1024 px, where lists once scrolled sideways), in English light and Arabic dark: the page logs no console error or
 * warning, breaks no Content-Security-Policy rule, does not scroll sideways, writes every number
 * in Latin digits (Arabic included), and clips no visible text unless the element (or the control
 * around it) carries the full text as a title or label. The player of a real recording too, in
 * both languages and both themes, with its controls in view at both sizes.
 */

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/**
 * Widths between the two where the lists once scrolled sideways (a laptop's 1280 and a tablet's
 * 1024: the sidebar shows, yet a grid's columns did not fit beside it): every screen is checked
 * there too, without the sidebar's height check; 1280 is photographed for a look.
 */
const BETWEEN = [
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
] as const;

const VARIANTS = [
  { locale: 'en', mode: 'light' },
  { locale: 'ar', mode: 'dark' },
] as const;

/** Who signs in, and the screens beyond the sidebar's they reach (the user menu's, a tab's own path). */
const USERS = [
  ['admin', ACCOUNTS.admin, ['/account', '/audit/streaming']],
  // A bookmark from before: the dashboard's route sends a user who may not load it elsewhere, quietly.
  // A plain user of its own (role user only): the demo's grace.kim gets a new password in
  // language-and-password.spec.ts, which runs before this one in the whole suite. Its address is
  // long (about 60 characters), as real ones are, so every place that shows it is checked whole.
  ['plain-user', null, ['/account', '/hostsDashboard']],
] as const;

/** What the page said on the console, and the CSP violations the document reported. */
interface Watch {
  messages: string[];
}

/** Collects console errors and warnings, uncaught errors and CSP violations from the start. */
async function watch(page: Page): Promise<Watch> {
  const w: Watch = { messages: [] };
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') w.messages.push(`console.${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (error) => w.messages.push(`uncaught: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      // Logged as an error, so the console listener records it with the rule and the source.
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
    });
  });
  return w;
}

/** The paths of the sidebar's entries, in order (the navigation decides what each user gets). */
async function navPaths(page: Page): Promise<string[]> {
  const hrefs = await mainNav(page)
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  return hrefs.map((href) => href.replace(/^#/, ''));
}

/**
 * Visible text elements whose text is cut off (scrollWidth beyond clientWidth) with no title,
 * aria-label or tooltip label carrying the whole text on it or on an ancestor up to a control.
 */
function clippedTexts(): { text: string; mark?: string }[] {
  const found: { text: string; mark?: string }[] = [];
  let marks = 0;
  for (const old of Array.from(document.querySelectorAll('[data-sweep-clip]'))) old.removeAttribute('data-sweep-clip');
  for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
    const ownText = Array.from(el.childNodes)
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent ?? '')
      .join('')
      .trim();
    if (!ownText) continue;
    const style = getComputedStyle(el);
    if (style.display === 'inline' || style.display === 'contents') continue;
    // Scroll areas are meant to scroll; a code block or a terminal is not clipped text.
    if (style.overflowX === 'auto' || style.overflowX === 'scroll') continue;
    if (!el.checkVisibility({ checkVisibilityCSS: true, checkOpacity: true })) continue;
    if (el.closest('[aria-hidden="true"], .xterm, canvas, [data-clip-ok]')) continue;
    // Cut by itself (ellipsis, hidden overflow), or by the nearest ancestor that clips (a chip
    // past its cell's edge); a scroll area on the way means it can be scrolled to.
    let cut = el.scrollWidth > el.clientWidth + 1;
    for (let up = el.parentElement; !cut && up && up !== document.body; up = up.parentElement) {
      const overflow = getComputedStyle(up).overflowX;
      if (overflow === 'auto' || overflow === 'scroll') break;
      if (overflow !== 'hidden' && overflow !== 'clip') continue;
      const inner = el.getBoundingClientRect();
      const outer = up.getBoundingClientRect();
      cut = inner.width > 1 && (inner.left < outer.left - 1 || inner.right > outer.right + 1);
      break;
    }
    if (!cut) continue;
    const full = (el.textContent ?? '').trim();
    let labelled = false;
    for (let node: HTMLElement | null = el, depth = 0; node && depth < 6; node = node.parentElement, depth++) {
      const label = `${node.getAttribute('title') ?? ''} ${node.getAttribute('aria-label') ?? ''}`;
      if (label.includes(full)) {
        labelled = true;
        break;
      }
    }
    if (labelled) continue;
    // Marked, so the test can hover it: a tooltip that shows the full text on hover counts too.
    const mark = String(marks++);
    el.setAttribute('data-sweep-clip', mark);
    found.push({
      text: `<${el.tagName.toLowerCase()}> "${full.slice(0, 80)}" ${el.scrollWidth}>${el.clientWidth}`,
      mark,
    });
  }
  // A chart's labels: an svg clips what falls outside it (the agents chart's last date did).
  for (const text of Array.from(document.querySelectorAll<SVGTextElement>('svg text'))) {
    const svg = text.ownerSVGElement;
    const label = (text.textContent ?? '').trim();
    if (!svg || !label || !text.checkVisibility({ checkVisibilityCSS: true, checkOpacity: true })) continue;
    const box = text.getBoundingClientRect();
    const frame = svg.getBoundingClientRect();
    if (box.width === 0) continue;
    // A chart shortens a label that does not fit to "Nov…".
    if (label.endsWith('…')) found.push({ text: `<svg text> "${label}" shortened` });
    if (
      box.left < frame.left - 1 ||
      box.right > frame.right + 1 ||
      box.top < frame.top - 1 ||
      box.bottom > frame.bottom + 1
    )
      found.push({
        text: `<svg text> "${label}" outside its chart (${Math.round(box.left)}..${Math.round(box.right)} in ${Math.round(frame.left)}..${Math.round(frame.right)})`,
      });
  }
  // Labels of one chart written over each other (the dates of a right-to-left axis did).
  for (const svg of Array.from(document.querySelectorAll('svg'))) {
    const boxes = Array.from(svg.querySelectorAll('text'))
      .filter((text) => (text.textContent ?? '').trim() && text.checkVisibility({ checkVisibilityCSS: true }))
      .map((text) => ({ label: (text.textContent ?? '').trim(), box: text.getBoundingClientRect() }));
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!.box;
        const b = boxes[j]!.box;
        const overlapX = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const overlapY = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        // Side by side on one line, not the corner where the two axes' first labels meet.
        if (overlapX > 2 && overlapY > Math.min(a.height, b.height) / 2)
          found.push({ text: `<svg text> "${boxes[i]!.label}" overlaps "${boxes[j]!.label}"` });
      }
  }
  return found;
}

/** True when hovering the marked element shows a tooltip holding its whole text. */
async function explainedOnHover(page: Page, mark: string | undefined): Promise<boolean> {
  if (mark === undefined) return false;
  const el = page.locator(`[data-sweep-clip="${mark}"]`);
  const full = ((await el.textContent()) ?? '').trim();
  await el.hover({ timeout: 2_000 }).catch(() => undefined);
  const tooltip = page.getByRole('tooltip').filter({ hasText: full });
  const shown = await tooltip
    .first()
    .waitFor({ state: 'visible', timeout: 1_500 })
    .then(() => true)
    .catch(() => false);
  await page.mouse.move(0, 0);
  return shown;
}

/**
 * What is wrong with the screen as shown: sideways scrolling (of the page or of a list), Arabic-Indic digits (every number of
 * the console is in Latin digits, intlLocale; the grids' pagers once read "١-٢٥ من أكثر من ٢٥"),
 * and text clipped with nothing to read it whole.
 */
async function screenProblems(page: Page, where: string): Promise<string[]> {
  const problems: string[] = [];
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 1) problems.push(`${where}: the document scrolls sideways by ${overflow}px`);
  // Nor does a list: a data grid that scrolls sideways hides its last columns (the actions).
  const grids = await page.evaluate(() =>
    Array.from(document.querySelectorAll('.MuiDataGrid-virtualScroller'), (el) => el.scrollWidth - el.clientWidth),
  );
  for (const sideways of grids.filter((by) => by > 1))
    problems.push(`${where}: a list scrolls sideways by ${sideways}px`);
  const digits = await page.evaluate(
    () => /[^\n]{0,30}[\u0660-\u0669\u06F0-\u06F9][^\n]{0,30}/.exec(document.body.innerText)?.[0],
  );
  if (digits) problems.push(`${where}: Arabic-Indic digits in "${digits}"`);
  for (const clip of await page.evaluate(clippedTexts))
    if (!(await explainedOnHover(page, clip.mark))) problems.push(`${where}: clipped ${clip.text}`);
  return problems;
}

/** Waits until the screen's data is in: its title, no spinner, no busy skeleton. */
async function settled(page: Page) {
  await expect(page.locator('main h1').first()).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

for (const { locale, mode } of VARIANTS)
  for (const [who, account, extraPaths] of USERS)
    test(`${who}: every screen of the navigation, ${locale} ${mode}, at 1440×900, 1280×800, 1024×768 and 390×844, is clean`, async ({
      page,
      request,
    }) => {
      test.setTimeout(240_000);
      const w = await watch(page);
      await page.setViewportSize(VIEWPORTS[0]);
      await signIn(page, account ?? (await createUser(request, 'samantha.sweep-of-the-operations-team', 'Sam Sweep')));
      await page.evaluate((l) => localStorage.setItem('locale', l), locale);
      await page.goto(`/#/?theme_mode=${mode}`);
      await page.reload();
      await expect(mainNav(page)).toBeVisible();
      expect(await page.locator('html').getAttribute('dir')).toBe(locale === 'ar' ? 'rtl' : 'ltr');
      const offered = await navPaths(page);
      expect(offered.length, 'the navigation offers screens').toBeGreaterThan(0);
      const paths = [...offered, ...extraPaths];
      // What signing in and landing logged counts too.
      const problems: string[] = w.messages.map((message) => `sign-in: ${message}`);
      let seen = w.messages.length;
      for (const viewport of [...VIEWPORTS, ...BETWEEN]) {
        await page.setViewportSize(viewport);
        for (const path of paths) {
          await page.goto(`/#${path}`);
          await expect(page.locator('main')).toBeVisible();
          await settled(page);
          const where = `${path} ${viewport.width}x${viewport.height}`;
          // The sidebar holds the whole navigation and its folded info box without scrolling.
          if (viewport.width === 1440) {
            const sidebar = await page
              .locator('aside')
              .first()
              .evaluate((aside) => aside.scrollHeight - aside.clientHeight);
            if (sidebar > 1) problems.push(`${where}: the sidebar needs ${sidebar}px more height`);
          }
          problems.push(...(await screenProblems(page, where)));
          for (const message of w.messages.slice(seen)) problems.push(`${where}: ${message}`);
          seen = w.messages.length;
          if (viewport.width === 1024) continue;
          const name = path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home';
          await page.screenshot({ path: `${SCREENS}/sweep/${who}-${locale}-${mode}-${viewport.width}-${name}.png` });
        }
      }
      expect(problems, problems.join('\n')).toEqual([]);
    });

/**
 * On a phone, Fit draws a 160-column session whole with its text about 2 px high: Actual size
 * (chosen with the keyboard) keeps the text readable (at least 10 px) and pans the terminal inside
 * its own box, sideways, while the page does not scroll sideways and the controls stay in view;
 * the choice outlives a reload. Fit is chosen again at the end for the next variant.
 */
async function actualSize(page: Page, locale: 'en' | 'ar', where: string, height: number): Promise<string[]> {
  const problems: string[] = [];
  const player = page.getByTestId('replay-player');
  const names = locale === 'ar' ? { actual: 'الحجم الفعلي', fit: 'ملاءمة' } : { actual: 'Actual size', fit: 'Fit' };
  const actual = player.getByRole('button', { name: names.actual, exact: true });
  await actual.focus();
  await page.keyboard.press('Enter');
  await expect(actual).toHaveAttribute('aria-pressed', 'true');
  const terminal = page.getByTestId('replay-terminal');
  const font = () => terminal.locator('.xterm-rows').evaluate((rows) => parseFloat(getComputedStyle(rows).fontSize));
  await expect.poll(font, { message: `${where}: the text at actual size is readable` }).toBeGreaterThanOrEqual(10);
  for (const check of [where, `${where} after a reload`]) {
    // The box shows where the session is (its end, at the bottom of 48 rows), not its top-left corner.
    await expect
      .poll(
        () =>
          terminal.evaluate((frame) => {
            const row = Array.from(frame.querySelectorAll('.xterm-rows > div')).find((r) =>
              r.textContent?.includes('sweep-end-42'),
            );
            if (!row) return 'the last line is not drawn';
            const [box, line] = [frame.getBoundingClientRect(), row.getBoundingClientRect()];
            return line.top >= box.top && line.bottom <= box.bottom
              ? 'in view'
              : `out of view (${line.top} in ${box.top}..${box.bottom})`;
          }),
        { message: `${check} at actual size: the box follows the session to its last line` },
      )
      .toBe('in view');
    const pans = await terminal.evaluate((frame) => frame.scrollWidth - frame.clientWidth);
    if (pans <= 0) problems.push(`${check} at actual size: the terminal does not pan sideways in its box`);
    for (const [name, control] of Object.entries({
      play: player.getByRole('button', { name: locale === 'ar' ? 'تشغيل' : 'Play', exact: true }),
      seek: player.getByRole('slider'),
    })) {
      const box = await control.boundingBox();
      if (!box || box.y < 0 || box.y + box.height > height)
        problems.push(`${check} at actual size: ${name} is out of view (${JSON.stringify(box)})`);
    }
    problems.push(...(await screenProblems(page, `${check} at actual size`)));
    if (check !== where) break;
    await page.screenshot({ path: `${SCREENS}/sweep/player-${locale}-390-actual.png` });
    await page.reload();
    await settled(page);
    await expect(actual, 'the choice is remembered').toHaveAttribute('aria-pressed', 'true');
    await expect.poll(font).toBeGreaterThanOrEqual(10);
    // Played to its end at actual size, the box follows the session's cursor down to its last line.
    await expect(player.getByRole('button', { name: locale === 'ar' ? 'تشغيل' : 'Play', exact: true })).toBeEnabled();
    await player.focus();
    await page.keyboard.press('End');
  }
  await player.getByRole('button', { name: names.fit, exact: true }).click();
  await expect(player.getByRole('button', { name: names.fit, exact: true })).toHaveAttribute('aria-pressed', 'true');
  return problems;
}

test.describe('the player', () => {
  // A real recording: OpenSSH in a 160x48 terminal → the gateway → a real agent → sshd.
  let gw: Gateway;

  test.beforeAll(async ({ request, baseURL }) => {
    test.setTimeout(90_000);
    gw = await startGateway(request, baseURL ?? '', 'e2e-sweep');
  });

  test.afterAll(() => {
    gw?.stop();
    killAllAgents();
  });

  test("a large recording's player, en and ar, light and dark, at 1440×900 and 390×844, is clean with play, seek and speed in view, and readable at actual size", async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const run = await gw.ssh('seq 1 100; sleep 2; seq 101 200; echo sweep-end-$((6*7))', {
      size: { cols: 160, rows: 48 },
    }).done;
    expect(run.stdout).toContain('sweep-end-42');
    const admin = await adminToken(request);
    const id = await newestRecordingId(request, gw.user.email);
    const detail = await callApi(request, admin, 'GET', `/api/recording/${id}/data`);
    expect(await detail.json(), "the recording has the terminal's size").toMatchObject({ width: 160, height: 48 });

    const w = await watch(page);
    await signIn(page, ACCOUNTS.admin);
    const problems: string[] = w.messages.map((message) => `sign-in: ${message}`);
    let seen = w.messages.length;
    for (const locale of ['en', 'ar'] as const)
      for (const mode of ['light', 'dark'] as const) {
        await page.setViewportSize(VIEWPORTS[0]);
        await page.evaluate((l) => localStorage.setItem('locale', l), locale);
        await page.goto(`/#/?theme_mode=${mode}`);
        await page.reload();
        await expect(mainNav(page)).toBeVisible();
        for (const viewport of VIEWPORTS) {
          await page.setViewportSize(viewport);
          await page.goto(`/#/recordings/${id}`);
          await settled(page);
          const where = `player ${locale} ${mode} ${viewport.width}x${viewport.height}`;
          const player = page.getByTestId('replay-player');
          const play = player.getByRole('button', { name: locale === 'ar' ? 'تشغيل' : 'Play', exact: true });
          await expect(play).toBeEnabled({ timeout: 15_000 });
          // Without scrolling: the terminal scales down so play, the seek bar and the speed fit below it.
          const controls = {
            play,
            seek: player.getByRole('slider'),
            speed: player.getByRole('combobox', { name: locale === 'ar' ? /السرعة/ : /Speed/ }),
          };
          for (const [name, control] of Object.entries(controls)) {
            const box = await control.boundingBox();
            if (!box || box.y < 0 || box.y + box.height > viewport.height)
              problems.push(`${where}: ${name} is out of view (${JSON.stringify(box)})`);
          }
          problems.push(...(await screenProblems(page, where)));
          // The end of the session is drawn whole in the scaled terminal.
          await player.focus();
          await page.keyboard.press('End');
          await expect(page.getByTestId('replay-terminal').locator('.xterm-rows')).toContainText('sweep-end-42');
          for (const message of w.messages.slice(seen)) problems.push(`${where}: ${message}`);
          seen = w.messages.length;
          await page.screenshot({ path: `${SCREENS}/sweep/player-${locale}-${mode}-${viewport.width}.png` });
          if (viewport.width === 390) problems.push(...(await actualSize(page, locale, where, viewport.height)));
        }
      }
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
