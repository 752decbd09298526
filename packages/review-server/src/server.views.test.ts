import { afterEach, describe, expect, it } from 'vitest';
import { type Client, cid, FLAGS, HOSTILE, PARAPHRASE, reviewProject, S, serve, WINSTON } from './serve.fixture.js';

let client: Client | null = null;
afterEach(async () => {
  await client?.server.close();
  client = null;
});

async function page(path: string): Promise<string> {
  const r = await client!.get(path);
  expect([path, r.status]).toEqual([path, 200]);
  expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
  return r.text();
}

describe('review server views', () => {
  it('backlog: totals, counts by severity and age, one row per session, every pending item', async () => {
    const { layout } = await reviewProject();
    client = await serve(layout);
    const html = await page('/');
    expect(html).toContain('<b>4</b><span>pending</span>');
    expect(html).toContain('<b>2</b><span>need review</span>');
    expect(html).toContain('<b>1</b><span>corroborated</span>');
    expect(html).toMatch(/badge red">conflict<\/span> 1/);
    expect(html).toMatch(/30 days or more<\/span> 4/);
    expect(html).toContain(`<a href="/session/${S}">${S}</a>`);
    expect(html).toContain(`/session/${S}#${cid(WINSTON)}`);
  });

  it('session: sorted by severity, side by side with the differing words marked, evidence and forms', async () => {
    const { layout } = await reviewProject();
    client = await serve(layout);
    const html = await page(`/session/${S}`);
    const order = [WINSTON, PARAPHRASE, FLAGS].map((c) => html.indexOf(`id="${cid(c)}"`));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain('<p class="text">Use <del>winston</del> for application logging.</p>');
    expect(html).toContain('<p class="text">Use <ins>pino</ins> for application logging.</p>');
    expect(html).toContain('<li>different choice: winston vs pino</li>');
    expect(html).toContain('<span class="badge green">fresh receipt</span>');
    expect(html).toMatch(
      /<select name="as"><option>conflict<\/option><option>supersede<\/option><option>related<\/option><option>unique<\/option>/,
    );
    expect(html).toContain('<input name="target" value="S-20260101-lg01"');
    // Every form carries the CSRF token; the page has no script at all.
    const forms = html.match(/<form /g)?.length ?? 0;
    expect(forms).toBeGreaterThan(3);
    expect(html.match(/name="csrf"/g)?.length).toBe(forms);
    expect(html).not.toMatch(/<script/i);
  });

  it('knowledge text is data: <script> and </textarea> in an entry render as text', async () => {
    const { layout } = await reviewProject();
    client = await serve(layout);
    const html = await page(`/session/${S}`);
    expect(html).toContain(
      'Never echo &lt;script&gt;alert(1)&lt;/script&gt; or &lt;/textarea&gt;&lt;b&gt;bold&lt;/b&gt;',
    );
    expect(html).toContain('<h3>Escape &lt;b&gt;user&lt;/b&gt; text</h3>');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('</textarea><b>');
    expect(HOSTILE).toContain('</textarea>');
  });

  it('promote confirmation lists exactly the entries and the lines it will write', async () => {
    const { layout } = await reviewProject();
    client = await serve(layout);
    const html = await page(`/session/${S}/promote`);
    expect(html).toContain(
      `<b>Flags</b> → <code>S-20260102-${cid(FLAGS).slice(4)}</code> (created) in <code>specs/learnings.md</code>`,
    );
    expect(html).toContain('<b>Logger</b> (review_required)');
    expect(html).toContain(`<ins>+ ${FLAGS}</ins>`);
    expect(html).toMatch(/name="digest" value="[0-9a-f]{64}"/);
    expect(html).toContain(`<input type="hidden" name="candidate" value="${cid(FLAGS)}">`);
  });

  it('entry history and audit pages; unknown ids are 404 with the reason', async () => {
    const { layout } = await reviewProject();
    client = await serve(layout);
    const entry = await page('/entry/S-20260101-lg01');
    expect(entry).toContain('<h1>Logger</h1>');
    expect(entry).toContain('written by hand');
    const audit = await page('/audit');
    expect(audit).toContain('corroborated-promotion-backlog');
    expect(audit).toContain('No backups yet.');
    const unknownEntry = await client.get('/entry/S-20990101-zzzz');
    expect(unknownEntry.status).toBe(404);
    expect(await unknownEntry.text()).toContain('no spec entry with id S-20990101-zzzz');
    const unknownSession = await client.get('/session/20990101-nope');
    expect(unknownSession.status).toBe(404);
    expect(await unknownSession.text()).toContain('unknown session');
    const badId = await client.get('/session/nope');
    expect(badId.status).toBe(400);
    expect(await badId.text()).toContain('invalid session id');
  });
});
