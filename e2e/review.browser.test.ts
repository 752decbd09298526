import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SUITE, CHROMIUM, CHROMIUM_ARGS } from './chromium.js';
import { ok } from './reconcile-helpers.js';
import { HOSTILE, R1, reviewProject, S, type Serving, serve } from './review-helpers.js';

let browser: Browser;
beforeAll(async () => {
  if (CHROMIUM) browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
});

const read = (root: string, rel: string) => readFileSync(join(root, '.workflow', rel), 'utf8');
const verdict = (root: string, id: string, run = R1) =>
  JSON.parse(read(root, `sessions/${S}/runs/${run}/knowledge-reconciliation.json`)).candidates.find(
    (c: { candidate_id: string }) => c.candidate_id === id,
  );

/** A served copy of the review project and a browser context with JavaScript off: every action is a plain form. */
async function open(): Promise<{ root: string; ids: Record<string, string>; s: Serving; ctx: BrowserContext }> {
  const { root, ids } = reviewProject();
  const s = await serve(root);
  const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  return { root, ids, s, ctx };
}

/** The text of the first match, once it is there (playwright-core has no web-first assertions). */
async function textOf(l: Locator): Promise<string> {
  await l.first().waitFor();
  return (await l.first().textContent()) ?? '';
}

async function close(o: { s: Serving; ctx: BrowserContext }) {
  await o.ctx.close();
  expect(await o.s.stop()).toBe(0);
}

describe.skipIf(!CHROMIUM)(BROWSER_SUITE, () => {
  it('opens with the token, sets an HttpOnly SameSite=Strict cookie per port, and refuses the reused link', async () => {
    const o = await open();
    const page = await o.ctx.newPage();
    await page.goto(o.s.url);
    expect(new URL(page.url()).search).toBe('');
    expect(await textOf(page.locator('h1'))).toBe('Knowledge backlog');
    const [cookie] = await o.ctx.cookies();
    expect(cookie).toMatchObject({ name: `maestro_review_${o.s.port}`, httpOnly: true, sameSite: 'Strict' });
    const stranger = await browser.newContext();
    const other = await stranger.newPage();
    expect((await other.goto(o.s.origin))?.status()).toBe(401);
    expect((await other.goto(o.s.url))?.status()).toBe(403);
    expect(await textOf(other.locator('.message'))).toContain('already used');
    await stranger.close();
    // A second page for another project in the same browser does not log the first one out.
    const second = await serve(reviewProject().root);
    await page.goto(second.url);
    expect((await page.goto(o.s.origin))?.status()).toBe(200);
    expect((await page.goto(second.origin))?.status()).toBe(200);
    expect(await second.stop()).toBe(0);
    await close(o);
  });

  it('resolves a conflict with a plain form, keeping the question open; the receipt and the spec file change on disk', async () => {
    const o = await open();
    const page = await o.ctx.newPage();
    await page.goto(o.s.url);
    await page.getByRole('link', { name: S }).first().click();
    const card = page.locator(`article#${o.ids.conflict}`);
    expect(await textOf(card.locator('del'))).toBe('winston');
    expect(await textOf(card.locator('ins'))).toBe('pino');
    await card.locator('select[name="as"]').selectOption('conflict');
    await card.locator('input[name="contest"]').check();
    await card.locator('textarea[name="reason"]').fill('pino or winston: the platform team decides');
    await card.getByRole('button', { name: 'Resolve' }).click();
    expect(await textOf(page.locator('.flash.ok'))).toContain('Resolved 1 candidate(s) as conflict.');
    expect(verdict(o.root, o.ids.conflict).resolution).toMatchObject({ status: 'confirmed', choice: 'conflict' });
    expect(read(o.root, 'specs/coding-conventions.md')).toMatch(/confidence="contested"/);
    await close(o);
  });

  it('resolves a batch of ticked candidates', async () => {
    const o = await open();
    const page = await o.ctx.newPage();
    await page.goto(o.s.url);
    await page.goto(`${o.s.origin}/session/${S}`);
    await page.locator(`input[type="checkbox"][value="${o.ids.conflict}"]`).check();
    await page.locator(`input[type="checkbox"][value="${o.ids.duplicate}"]`).check();
    const batch = page.locator('form#batch');
    await batch.locator('select[name="as"]').selectOption('unique');
    await batch.locator('textarea[name="reason"]').fill('reviewed: independent rules');
    await batch.getByRole('button', { name: 'Resolve batch' }).click();
    expect(await textOf(page.locator('.flash.ok'))).toContain('Resolved 2 candidate(s) as unique.');
    expect(verdict(o.root, o.ids.conflict).resolution.choice).toBe('unique');
    expect(verdict(o.root, o.ids.duplicate).resolution.choice).toBe('unique');
    await close(o);
  });

  it('promotes after a confirmation that lists what will be written; the corpus changes on disk', async () => {
    const o = await open();
    const page = await o.ctx.newPage();
    await page.goto(o.s.url);
    await page.goto(`${o.s.origin}/session/${S}`);
    await page.getByRole('link', { name: 'Promote eligible…' }).click();
    expect(await textOf(page.locator('h1'))).toContain('Promote from');
    await page.getByText('Flags →').first().waitFor();
    expect(() => read(o.root, 'specs/learnings.md')).toThrow();
    await page.getByRole('button', { name: /^Promote these/ }).click();
    expect(await textOf(page.locator('.flash.ok'))).toContain(`candidate(s) of ${S}.`);
    const written = read(o.root, `specs/coding-conventions.md`);
    expect(written).toContain('Remove feature flags within two sprints after full rollout.');
    expect(written).toContain(`source="session:${S}:${o.ids.flags}"`);
    await page.goto(`${o.s.origin}/entry/S-20260220-${o.ids.flags.slice(4)}`);
    expect(await textOf(page.locator('.origin'))).toContain(`from session ${S}, candidate ${o.ids.flags}`);
    await close(o);
  });

  it('renders an entry containing HTML as text (no script runs, nothing injected); lays out at 1280 px and 390 px', async () => {
    const { root, ids } = reviewProject();
    const s = await serve(root);
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') violations.push(m.text());
    });
    await page.goto(s.url);
    await page.goto(`${s.origin}/session/${S}`);
    const card = page.locator(`article#${ids.hostile}`);
    expect(await textOf(card.locator('p.text'))).toBe(HOSTILE);
    expect(await textOf(card.locator('h3'))).toBe('Escape <b>user</b> text');
    expect(await card.locator('img, script, b').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(violations).toEqual([]);
    // Side by side at 1280 px; stacked, with nothing wider than the window, at 390 px.
    const sides = page.locator(`article#${ids.conflict} .compare .side`);
    await page.setViewportSize({ width: 1280, height: 900 });
    const [a, b] = [await sides.nth(0).boundingBox(), await sides.nth(1).boundingBox()];
    expect(a!.y).toBe(b!.y);
    expect(b!.x).toBeGreaterThan(a!.x + a!.width - 1);
    await page.setViewportSize({ width: 390, height: 844 });
    const [c, d] = [await sides.nth(0).boundingBox(), await sides.nth(1).boundingBox()];
    expect(c!.x).toBe(d!.x);
    expect(d!.y).toBeGreaterThan(c!.y + c!.height - 1);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await ctx.close();
    expect(await s.stop()).toBe(0);
  });

  it('refuses a form posted from a foreign origin, even with the cookie', async () => {
    const o = await open();
    const page = await o.ctx.newPage();
    await page.goto(o.s.url);
    const evil = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<form method="post" action="${o.s.origin}/session/${S}/resolve"><input name="candidate" value="${o.ids.conflict}"><input name="as" value="unique"><input name="reason" value="forged"><button>go</button></form>`,
      );
    });
    await new Promise<void>((done) => evil.listen(0, '127.0.0.1', done));
    const port = (evil.address() as { port: number }).port;
    await page.goto(`http://127.0.0.1:${port}/`);
    const [response] = await Promise.all([
      page.waitForResponse(`${o.s.origin}/session/${S}/resolve`),
      page.click('button'),
    ]);
    expect(response.status()).toBe(403);
    expect(await textOf(page.locator('.message'))).toContain('another origin');
    expect(verdict(o.root, o.ids.conflict).resolution?.reason).not.toBe('forged');
    evil.close();
    await close(o);
  });

  it('a page opened before a CLI change refuses a stale resolve, shows the change on reload, and refreshes', async () => {
    const o = await open();
    const page = await o.ctx.newPage();
    await page.goto(o.s.url);
    await page.goto(`${o.s.origin}/session/${S}`);
    // A change the duplicate's verdict depends on (an unrelated one would be revalidated and keep the receipt fresh).
    ok(o.root, [
      'spec',
      'add',
      'coding',
      'Timestamps',
      'Persist every date-time value as Coordinated Universal Time, always.',
    ]);
    const card = page.locator(`article#${o.ids.duplicate}`);
    await card.locator('textarea[name="reason"]').fill('same rule as UTC');
    await card.getByRole('button', { name: 'Resolve' }).click();
    expect(await textOf(page.locator('.message'))).toContain('the corpus changed after this page was loaded');
    expect(verdict(o.root, o.ids.duplicate).resolution?.status).not.toBe('confirmed');
    await page.goto(`${o.s.origin}/session/${S}`);
    await page.locator('.candidate .badge.red', { hasText: 'stale receipt' }).first().first().waitFor();
    expect(await page.locator(`article#${o.ids.duplicate} textarea`).isDisabled()).toBe(true);
    await page.locator('.button.disabled', { hasText: 'Promote eligible…' }).first().waitFor();
    await page.getByRole('button', { name: 'Refresh receipts' }).click();
    expect(await textOf(page.locator('.flash.ok'))).toContain('Refreshed:');
    expect(await page.locator(`article#${o.ids.duplicate} textarea`).isDisabled()).toBe(false);
    await close(o);
  });
});
