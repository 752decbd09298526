import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditKnowledge } from '@maestro/audit';
import { readReceipt, receiptIsFresh } from '@maestro/reconcile';
import { readTree, writeTree } from '@maestro/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Client,
  cid,
  FLAGS,
  LOGGER_SID,
  PARAPHRASE,
  pageFingerprint,
  R1,
  reviewProject,
  runtime,
  S,
  serve,
  WINSTON,
} from './serve.fixture.js';

let client: Client | null = null;
afterEach(async () => {
  await client?.server.close();
  client = null;
});

/** What the user wrote: everything but derived state under .workflow/.index/. */
const userFiles = (root: string) => readTree(root, (rel) => rel.startsWith('.workflow/.index'));
const specs = (root: string) =>
  Object.fromEntries(Object.entries(readTree(root)).filter(([rel]) => rel.startsWith('.workflow/specs/')));

const receipt = (root: string, run = R1) =>
  JSON.parse(readFileSync(join(root, `.workflow/sessions/${S}/runs/${run}/knowledge-reconciliation.json`), 'utf8'));
const verdictOf = (root: string, id: string, run = R1) =>
  receipt(root, run).candidates.find((c: { candidate_id: string }) => c.candidate_id === id);

/** Follows the POST's 303 and returns the page it lands on. */
async function landed(c: Client, r: Response): Promise<string> {
  expect(r.status).toBe(303);
  const location = r.headers.get('location') ?? '';
  expect(location).toMatch(new RegExp(`^/session/${S}\\?m=|^/audit\\?m=`));
  return (await c.get(location)).text();
}

const NEW_SPEC = {
  '.workflow/specs/learnings.md':
    '<spec-entry category="learning" sid="S-20260101-zz01" title="Logging library">\n\n### Logging library\n\nUse winston for application logging.\n\n</spec-entry>\n',
};

describe('review server actions (the CLI code paths)', () => {
  it('resolves a conflict: receipt confirmed, the rule stands untouched, message shown once', async () => {
    const { root, layout } = await reviewProject();
    client = await serve(layout);
    const rule = readFileSync(join(root, '.workflow/specs/coding-conventions.md'), 'utf8');
    const csrf = await client.csrf();
    const r = await client.post(`/session/${S}/resolve`, [
      ['csrf', csrf],
      ['candidate', cid(WINSTON)],
      ['fp', await pageFingerprint(client)],
      ['as', 'conflict'],
      ['target', LOGGER_SID],
      ['reason', 'pino stays: one logger'],
    ]);
    const html = await landed(client, r);
    expect(html).toContain('Resolved 1 candidate(s) as conflict.');
    expect(verdictOf(root, cid(WINSTON)).resolution).toMatchObject({
      status: 'confirmed',
      reason: 'pino stays: one logger',
      choice: 'conflict',
    });
    expect(readFileSync(join(root, '.workflow/specs/coding-conventions.md'), 'utf8')).toBe(rule);
    const again = await (await client.get(r.headers.get('location')!)).text();
    expect(again).not.toContain('Resolved 1 candidate(s)');
  });

  it('resolves a conflict with "keep the question open": the target is marked contested', async () => {
    const { root, layout } = await reviewProject();
    client = await serve(layout);
    const r = await client.post(`/session/${S}/resolve`, [
      ['csrf', await client.csrf()],
      ['candidate', cid(WINSTON)],
      ['fp', await pageFingerprint(client)],
      ['as', 'conflict'],
      ['contest', 'on'],
      ['target', LOGGER_SID],
      ['reason', 'needs a decision from the platform team'],
    ]);
    expect(await landed(client, r)).toContain('Resolved 1 candidate(s) as conflict.');
    expect(readFileSync(join(root, '.workflow/specs/coding-conventions.md'), 'utf8')).toMatch(/confidence="contested"/);
  });

  it('refuses a resolve without a reason (400) and writes nothing', async () => {
    const { root, layout } = await reviewProject();
    client = await serve(layout);
    const before = userFiles(root);
    const r = await client.post(`/session/${S}/resolve`, [
      ['csrf', await client.csrf()],
      ['candidate', cid(WINSTON)],
      ['as', 'conflict'],
      ['reason', '  '],
    ]);
    expect(r.status).toBe(400);
    expect(await r.text()).toContain('requires a non-empty reason');
    expect(userFiles(root)).toEqual(before);
  });

  it('resolves a batch of ticked candidates, and every pending one of a verdict', async () => {
    const { root, layout } = await reviewProject();
    client = await serve(layout);
    const csrf = await client.csrf();
    const ticked = await client.post(`/session/${S}/batch`, [
      ['csrf', csrf],
      ['which', 'selected'],
      ['candidate', cid(WINSTON)],
      ['candidate', cid(PARAPHRASE)],
      ['as', 'unique'],
      ['reason', 'independent rules'],
    ]);
    expect(await landed(client, ticked)).toContain('Resolved 2 candidate(s) as unique.');
    expect(verdictOf(root, cid(WINSTON)).resolution.choice).toBe('unique');
    expect(verdictOf(root, cid(PARAPHRASE)).resolution.choice).toBe('unique');
    const none = await client.post(`/session/${S}/batch`, [
      ['csrf', csrf],
      ['which', 'selected'],
      ['as', 'unique'],
      ['reason', 'x'],
    ]);
    expect(none.status).toBe(400);
    expect(await none.text()).toContain('tick at least one candidate');
  });

  it('resolves every pending candidate of one verdict (like --all-as)', async () => {
    const { root, layout } = await reviewProject();
    client = await serve(layout);
    const r = await client.post(`/session/${S}/batch`, [
      ['csrf', await client.csrf()],
      ['which', 'semantic_duplicate'],
      ['as', 'duplicate'],
      ['reason', 'same rule as UTC'],
    ]);
    expect(await landed(client, r)).toContain('Resolved 1 candidate(s) as duplicate.');
    expect(verdictOf(root, cid(PARAPHRASE)).resolution.choice).toBe('duplicate');
    expect(verdictOf(root, cid(WINSTON)).resolution?.status).not.toBe('confirmed');
  });

  it('a receipt gone stale after the page loaded: forms disabled, resolve refused (409), refresh fixes it', async () => {
    const { root, layout } = await reviewProject();
    client = await serve(layout);
    const csrf = await client.csrf();
    const fp = await pageFingerprint(client);
    writeTree(root, NEW_SPEC);
    const fields: [string, string][] = [
      ['csrf', csrf],
      ['candidate', cid(WINSTON)],
      ['as', 'conflict'],
      ['reason', 'pino'],
    ];
    const withOldPage = await client.post(`/session/${S}/resolve`, [...fields, ['fp', fp]]);
    expect(withOldPage.status).toBe(409);
    expect(await withOldPage.text()).toContain('the corpus changed after this page was loaded');
    const stale = await client.post(`/session/${S}/resolve`, fields);
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain(`maestro knowledge review ${S} --refresh`);
    const html = await (await client.get(`/session/${S}`)).text();
    expect(html).toContain('<span class="badge red">stale receipt</span>');
    expect(html).toContain('<button class="primary" type="submit">Refresh receipts</button>');
    expect(html).toContain('<span class="button disabled" aria-disabled="true">Promote eligible…</span>');
    expect(html).not.toMatch(/<fieldset>\s*<label>Resolve as/);
    const preview = await client.get(`/session/${S}/promote`);
    expect(preview.status).toBe(409);
    const refreshed = await client.post(`/session/${S}/refresh`, [['csrf', csrf]]);
    expect(await landed(client, refreshed)).toContain('Refreshed: 1 receipt(s) regenerated');
    const after = await (await client.get(`/session/${S}`)).text();
    expect(after).not.toContain('stale receipt');
  });

  it('promotes after the confirmation: the corpus changes on disk; a changed plan is refused', async () => {
    const { root, layout } = await reviewProject();
    client = await serve(layout);
    const csrf = await client.csrf();
    const decided = await client.post(`/session/${S}/resolve`, [
      ['csrf', csrf],
      ['candidate', cid(PARAPHRASE)],
      ['as', 'unique'],
      ['reason', 'a rule of its own'],
    ]);
    expect(decided.status).toBe(303);
    const confirm = await (await client.get(`/session/${S}/promote`)).text();
    const digest = /name="digest" value="([0-9a-f]{64})"/.exec(confirm)![1];
    const ids = [...confirm.matchAll(/name="candidate" value="(KDC-[0-9a-f]{16})"/g)].map((m) => m[1]);
    expect(ids).toContain(cid(FLAGS));
    const wrong = await client.post(`/session/${S}/promote`, [
      ['csrf', csrf],
      ['digest', '0'.repeat(64)],
      ...ids.map((id) => ['candidate', id] as [string, string]),
    ]);
    expect(wrong.status).toBe(409);
    expect(await wrong.text()).toContain('changed after the confirmation');
    expect(() => readFileSync(join(root, '.workflow/specs/learnings.md'))).toThrow();
    const r = await client.post(`/session/${S}/promote`, [
      ['csrf', csrf],
      ['digest', digest],
      ...ids.map((id) => ['candidate', id] as [string, string]),
    ]);
    if (r.status !== 303) throw new Error(await r.text());
    expect(await landed(client, r)).toContain(`Promoted ${ids.length} candidate(s) of ${S}.`);
    const learnings = readFileSync(join(root, '.workflow/specs/learnings.md'), 'utf8');
    expect(learnings).toContain(FLAGS);
    expect(learnings).toContain(`source="session:${S}:${cid(FLAGS)}"`);
    const entry = await (await client.get(`/entry/S-20260102-${cid(FLAGS).slice(4)}`)).text();
    expect(entry).toContain(`from session <a href="/session/${S}">${S}</a>, candidate <code>${cid(FLAGS)}</code>`);
    expect(entry).toContain('created on 2026-03-04');
    const time = await (await client.get(`/entry/S-20260102-${cid(PARAPHRASE).slice(4)}`)).text();
    expect(time).toContain('resolved by a person as unique on 2026-03-04: “a rule of its own”');
  });

  it('restores an audit backup; an unknown backup is 404', async () => {
    const { root, layout } = await reviewProject();
    const dup =
      '<spec-entry category="debug" sid="S-20260101-dup1" title="Restart">\n\n### Restart\n\nRestart the dev server after editing .env files.\n\n</spec-entry>\n';
    writeTree(root, {
      '.workflow/specs/debug-notes.md': dup,
      '.workflow/specs/learnings.md': dup.replace('dup1', 'dup2').replace('debug', 'learning'),
    });
    const before = specs(root);
    const report = await auditKnowledge(layout, {
      prune: true,
      apply: true,
      runtime: runtime(),
      receipts: { read: readReceipt, fresh: receiptIsFresh },
    });
    const backup = report.applied!.backup_id!;
    expect(specs(root)).not.toEqual(before);
    client = await serve(layout);
    const audit = await (await client.get('/audit')).text();
    expect(audit).toContain(`<input type="hidden" name="backup" value="${backup}">`);
    const edited = join(root, '.workflow/specs/learnings.md');
    writeFileSync(edited, `${readFileSync(edited, 'utf8')}\nan edit made after the apply\n`);
    const refused = await client.post('/audit/restore', [
      ['csrf', await client.csrf()],
      ['backup', backup],
    ]);
    const refusal = await landed(client, refused);
    expect(refusal).toContain('class="flash error"');
    expect(refusal).toContain('<li>.workflow/specs/learnings.md</li>');
    expect(readFileSync(edited, 'utf8')).toContain('an edit made after the apply');
    const r = await client.post('/audit/restore', [
      ['csrf', await client.csrf()],
      ['backup', backup],
      ['force', '1'],
    ]);
    expect(await landed(client, r)).toContain(`Restored 2 file(s) from ${backup}.`);
    expect(specs(root)).toEqual(before);
    const unknown = await client.post('/audit/restore', [
      ['csrf', await client.csrf()],
      ['backup', 'knowledge-audit-nope'],
    ]);
    expect([400, 404]).toContain(unknown.status);
  });
});

describe('review server refusals of bad form input', () => {
  it('an unknown choice or batch selection is 400 and writes nothing', async () => {
    const { root, layout } = await reviewProject();
    client = await serve(layout);
    const csrf = await client.csrf();
    const before = userFiles(root);
    const badAs = await client.post(`/session/${S}/resolve`, [
      ['csrf', csrf],
      ['candidate', cid(WINSTON)],
      ['as', 'maybe'],
      ['reason', 'x'],
    ]);
    expect(badAs.status).toBe(400);
    expect(await badAs.text()).toContain('must be one of duplicate, related, conflict, supersede, unique');
    const badWhich = await client.post(`/session/${S}/batch`, [
      ['csrf', csrf],
      ['which', 'everything'],
      ['as', 'unique'],
      ['reason', 'x'],
    ]);
    expect(badWhich.status).toBe(400);
    expect(await badWhich.text()).toContain('unknown batch selection');
    const unknownCandidate = await client.post(`/session/${S}/resolve`, [
      ['csrf', csrf],
      ['candidate', 'KDC-0000000000000000'],
      ['as', 'unique'],
      ['reason', 'x'],
    ]);
    expect([400, 404]).toContain(unknownCandidate.status);
    expect(userFiles(root)).toEqual(before);
  });

  it('a promotion confirmation that names no candidate is 400; a damaged ledger is named with its line', async () => {
    const { root, layout } = await reviewProject();
    client = await serve(layout);
    const csrf = await client.csrf();
    const none = await client.post(`/session/${S}/promote`, [
      ['csrf', csrf],
      ['digest', '0'.repeat(64)],
    ]);
    expect(none.status).toBe(400);
    expect(await none.text()).toContain('named no candidate');
    writeFileSync(
      join(root, `.workflow/sessions/${S}/runs/${R1}/knowledge-delta.json`),
      '{\n  "schema_version": oops\n}\n',
    );
    const damaged = await client.get(`/session/${S}/promote`);
    expect(damaged.status).toBe(400);
    expect(await damaged.text()).toMatch(new RegExp(`runs/${R1}/knowledge-delta.json:2`));
  });

  it('a damaged receipt: the session page refuses naming it and offers the refresh that regenerates it', async () => {
    const { root, layout } = await reviewProject();
    client = await serve(layout);
    const csrf = await client.csrf();
    const path = join(root, `.workflow/sessions/${S}/runs/${R1}/knowledge-reconciliation.json`);
    writeFileSync(path, '{ broken');
    const r = await client.get(`/session/${S}`);
    expect(r.status).toBe(400);
    const html = await r.text();
    expect(html).toContain('knowledge-reconciliation.json is damaged');
    expect(html).toContain(`action="/session/${S}/refresh"`);
    const refreshed = await client.post(`/session/${S}/refresh`, [['csrf', csrf]]);
    expect(await landed(client, refreshed)).toContain('Refreshed:');
    expect(JSON.parse(readFileSync(path, 'utf8')).schema_version).toBe('knowledge-reconciliation/1.0');
  });
});
