import { type Page, expect, test } from '@playwright/test';
import { ACCOUNTS, SCREENS, mainNav, signIn } from '../fixtures.js';
import { createUser } from './users-api.js';

/**
 * Every screen the navigation gives an administrator and a plain user (role user only), at a
 * laptop's and a phone's size, in English light and Arabic dark: the page logs no console error or
 * warning, breaks no Content-Security-Policy rule, does not scroll sideways, and clips no visible
 * text unless the element (or the control around it) carries the full text as a title or label.
 */

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
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

/** Waits until the screen's data is in: its title, no spinner, no busy skeleton. */
async function settled(page: Page) {
  await expect(page.locator('main h1').first()).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

for (const { locale, mode } of VARIANTS)
  for (const [who, account, extraPaths] of USERS)
    test(`${who}: every screen of the navigation, ${locale} ${mode}, at 1440×900 and 390×844, is clean`, async ({
      page,
      request,
    }) => {
      test.setTimeout(120_000);
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
      for (const viewport of VIEWPORTS) {
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
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          if (overflow > 1) problems.push(`${where}: the document scrolls sideways by ${overflow}px`);
          for (const clip of await page.evaluate(clippedTexts))
            if (!(await explainedOnHover(page, clip.mark))) problems.push(`${where}: clipped ${clip.text}`);
          for (const message of w.messages.slice(seen)) problems.push(`${where}: ${message}`);
          seen = w.messages.length;
          const name = path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home';
          await page.screenshot({ path: `${SCREENS}/sweep/${who}-${locale}-${mode}-${viewport.width}-${name}.png` });
        }
      }
      expect(problems, problems.join('\n')).toEqual([]);
    });
