// Screenshots of the review page for docs/images/: runs `pnpm demo` (which keeps its project), serves
// it with the built `maestro review serve`, and drives Debian's chromium with playwright-core.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';

const root = resolve(import.meta.dirname, '../..');
const bin = resolve(root, 'apps/maestro/dist/main.js');
const out = resolve(root, 'docs/images');
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const demo = spawnSync(process.execPath, [resolve(root, 'tooling/scripts/demo.mjs')], {
  encoding: 'utf8',
  env: { ...process.env, NO_COLOR: '1' },
});
const project = /review serve --workflow-root (\S+)/.exec(demo.stdout)?.[1];
if (demo.status !== 0 || !project) throw new Error(`pnpm demo failed:\n${demo.stderr}`);
const env = { ...process.env, NO_COLOR: '1', MAESTRO_NOW: '2026-12-01T10:00:00Z' };
const cli = (args) =>
  JSON.parse(
    spawnSync(process.execPath, [bin, ...args, '--workflow-root', project, '--json'], { encoding: 'utf8', env }).stdout,
  );
const retry = cli(['spec', 'list', '--include-deprecated']).entries.find(
  (e) => e.title === 'HTTP retry policy' && e.status === 'active',
);

const server = spawn(process.execPath, [bin, 'review', 'serve', '--json', '--workflow-root', project], { env });
const info = await new Promise((done, fail) => {
  let text = '';
  server.stdout.setEncoding('utf8').on('data', (d) => {
    text += d;
    if (text.endsWith('}\n')) done(JSON.parse(text));
  });
  server.on('exit', (code) => fail(new Error(`review serve exited ${code}`)));
});

const browser = await chromium.launch({ executablePath, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
try {
  mkdirSync(out, { recursive: true });
  const wide = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
  const page = await wide.newPage();
  await page.goto(info.url);
  const shots = [
    ['review-backlog.png', '/'],
    ['review-session.png', '/session/20261130-logging'],
    ['review-history.png', `/entry/${retry.id}`],
  ];
  for (const [file, path] of shots) {
    await page.goto(`${info.origin}${path}`);
    await page.screenshot({ path: resolve(out, file), fullPage: true });
    console.log(`wrote docs/images/${file}`);
  }
  const narrow = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
  const phone = await narrow.newPage();
  await wide.storageState().then((s) => narrow.addCookies(s.cookies));
  await phone.goto(`${info.origin}/session/20261130-logging`);
  await phone.screenshot({ path: resolve(out, 'review-session-narrow.png'), fullPage: false });
  console.log('wrote docs/images/review-session-narrow.png');
} finally {
  await browser.close();
  server.kill('SIGINT');
  rmSync(project, { recursive: true, force: true });
}
