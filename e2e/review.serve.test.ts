import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpDir } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { maestro } from './reconcile-helpers.js';
import { reviewProject, S, serve } from './review-helpers.js';

describe('maestro review serve', () => {
  it('prints one JSON document once listening, serves the page, and exits 0 on Ctrl+C', async () => {
    const { root } = reviewProject();
    const s = await serve(root);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    const first = await fetch(s.url, { redirect: 'manual' });
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
    const page = await fetch(`${s.origin}/session/${S}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Use <del>winston</del> for application logging.');
    expect(await s.stop()).toBe(0);
  });

  it('--open starts the desktop opener with the URL', async () => {
    const { root } = reviewProject();
    const bin = tmpDir('maestro-opener-');
    const log = join(bin, 'opened.txt');
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\necho "$1" > ${JSON.stringify(log)}\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const s = await serve(root, ['--open'], { PATH: `${bin}:${process.env.PATH}` });
    for (let i = 0; i < 50 && !readSafe(log); i++) await new Promise((r) => setTimeout(r, 100));
    expect(readSafe(log).trim()).toBe(s.url);
    expect(await s.stop()).toBe(0);
  });

  it('refuses a bad --port (exit 2), a taken port (exit 3) and a project without .workflow (exit 2)', async () => {
    const { root } = reviewProject();
    for (const port of ['abc', '70000']) {
      const r = maestro(root, ['review', 'serve', `--port=${port}`]);
      expect([port, r.code]).toEqual([port, 2]);
      expect(r.stderr).toContain('--port must be a number from 0 to 65535');
    }
    const s = await serve(root);
    const taken = maestro(root, ['review', 'serve', '--port', String(s.port), '--json']);
    expect(taken.code).toBe(3);
    expect(taken.json<{ error: { code: string; hint: string } }>().error).toMatchObject({
      code: 'PORT_IN_USE',
      hint: expect.stringContaining('--port'),
    });
    await s.stop();
    const empty = tmpDir('maestro-empty-');
    const none = maestro(empty, ['review', 'serve']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no .workflow/ directory');
  });
});

function readSafe(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
