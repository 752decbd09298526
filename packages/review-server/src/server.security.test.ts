import { afterEach, describe, expect, it } from 'vitest';
import { type Client, cid, raw, reviewProject, S, serve, WINSTON } from './serve.fixture.js';
import { startReviewServer } from './server.js';

let client: Client | null = null;
afterEach(async () => {
  await client?.server.close();
  client = null;
});

const GETS = ['/', `/session/${S}`, `/session/${S}/promote`, '/entry/S-20260101-lg01', '/audit'];
const POSTS = [
  `/session/${S}/resolve`,
  `/session/${S}/batch`,
  `/session/${S}/refresh`,
  `/session/${S}/promote`,
  '/audit/restore',
];

describe('review server safety', () => {
  it('listens on 127.0.0.1 only and puts a one-time token in the URL', async () => {
    const { layout } = await reviewProject();
    const server = await startReviewServer(layout);
    try {
      expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
      const first = await fetch(server.url, { redirect: 'manual' });
      expect(first.status).toBe(303);
      expect(first.headers.get('location')).toBe('/');
      expect(first.headers.get('set-cookie')).toMatch(
        new RegExp(`^maestro_review_${server.port}=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=/$`),
      );
      const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
      const reopened = await fetch(server.url, { redirect: 'manual', headers: { cookie } });
      expect(reopened.status).toBe(303);
      expect(reopened.headers.get('set-cookie')).toBeNull();
      const again = await fetch(server.url, { redirect: 'manual' });
      expect(again.status).toBe(403);
      expect(await again.text()).toContain('already used');
      const wrong = await fetch(`${server.origin}/?token=nope`, { redirect: 'manual' });
      expect(wrong.status).toBe(403);
    } finally {
      await server.close();
    }
  });

  it('refuses every page and every action without the cookie (401)', async () => {
    const { layout } = await reviewProject();
    client = await serve(layout);
    for (const path of GETS) {
      const r = await fetch(`${client.server.origin}${path}`, { redirect: 'manual' });
      expect([path, r.status]).toEqual([path, 401]);
      expect(await r.text()).toContain('needs the link');
    }
    const csrf = await client.csrf();
    for (const path of POSTS) {
      const r = await fetch(`${client.server.origin}${path}`, {
        method: 'POST',
        headers: {
          origin: client.server.origin,
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `maestro_review_${client.server.port}=forged`,
        },
        body: `csrf=${csrf}`,
      });
      expect([path, r.status]).toEqual([path, 401]);
    }
  });

  it('refuses a foreign or missing Origin, a wrong CSRF token, a non-form body and a huge one', async () => {
    const { layout } = await reviewProject();
    client = await serve(layout);
    const csrf = await client.csrf();
    const fields: [string, string][] = [
      ['csrf', csrf],
      ['candidate', cid(WINSTON)],
      ['as', 'conflict'],
      ['reason', 'pino stays'],
    ];
    const path = `/session/${S}/resolve`;
    const foreign = await client.post(path, fields, { origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toContain('another origin');
    const noOrigin = await raw(
      client.server,
      'POST',
      path,
      {
        host: `127.0.0.1:${client.server.port}`,
        cookie: client.cookie,
        'content-type': 'application/x-www-form-urlencoded',
      },
      new URLSearchParams(fields).toString(),
    );
    expect(noOrigin.status).toBe(403);
    const badCsrf = await client.post(path, [['csrf', 'x'], ...fields.slice(1)]);
    expect(badCsrf.status).toBe(403);
    expect(await badCsrf.text()).toContain('form token');
    const noCsrf = await client.post(path, fields.slice(1));
    expect(noCsrf.status).toBe(403);
    const json = await client.post(path, fields, { 'content-type': 'application/json' });
    expect(json.status).toBe(415);
    const huge = await client.post(path, [...fields, ['pad', 'x'.repeat(1024 * 1024 + 10)]]);
    expect(huge.status).toBe(413);
    // Nothing was resolved by any of them.
    const page = await (await client.get(`/session/${S}`)).text();
    expect(page).not.toContain('Resolved by a person');
  });

  it('refuses a foreign Host header (DNS rebinding) on every request, even with the cookie', async () => {
    const { layout } = await reviewProject();
    client = await serve(layout);
    for (const host of ['evil.example', `evil.example:${client.server.port}`, '127.0.0.1:1']) {
      const r = await raw(client.server, 'GET', '/', { host, cookie: client.cookie });
      expect([host, r.status]).toEqual([host, 403]);
    }
    const ok = await raw(client.server, 'GET', '/', { host: `localhost:${client.server.port}`, cookie: client.cookie });
    expect(ok.status).toBe(200);
  });

  it('sends a strict CSP and no-sniff on every response, refusals included', async () => {
    const { layout } = await reviewProject();
    client = await serve(layout);
    for (const r of [await client.get('/'), await fetch(`${client.server.origin}/`), await client.get('/nope')]) {
      const csp = r.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("form-action 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('script-src');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('answers 404 for an unknown path, 405 for a wrong method, 400 for a malformed one', async () => {
    const { layout } = await reviewProject();
    client = await serve(layout);
    expect((await client.get('/nope')).status).toBe(404);
    expect((await client.get(`/session/${S}/resolve`)).status).toBe(405);
    expect((await client.post('/', [['csrf', await client.csrf()]])).status).toBe(405);
    expect((await client.get('/session/%E0%A4%A')).status).toBe(400);
    const css = await client.get('/assets/style.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
  });

  it('names the port when it is taken (exit 3, PORT_IN_USE)', async () => {
    const { layout } = await reviewProject();
    client = await serve(layout);
    await expect(startReviewServer(layout, { port: client.server.port })).rejects.toMatchObject({
      code: 'PORT_IN_USE',
      exitCode: 3,
      hint: expect.stringContaining('--port'),
    });
  });
});
