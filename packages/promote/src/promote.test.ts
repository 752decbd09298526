import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash, isMaestroError } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { loadCorpus } from '@maestro/spec';
import { readTree } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';
import { cid, fileReceipts, ledger, NOW, project, R1, R2, read, runtime, S, verdict } from './promote.fixture.js';
import { promote } from './promote.js';

const opts = { receipts: fileReceipts };
const run = (root: string, req: { candidates?: string[]; all?: boolean }) =>
  promote(workflowLayout(root), { sessionId: S, ...req }, runtime(), opts);

async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    if (isMaestroError(err)) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('promote', () => {
  test('a spec candidate lands in its category file with planned sid, source and a promoted ledger', async () => {
    const content = 'Store every timestamp in UTC.';
    const root = project({ runs: [{ runId: R1, candidates: [{ content, title: 'Use UTC', category: 'arch' }] }] });
    const r = await run(root, { candidates: [cid(content)] });
    const hex = cid(content).slice(4);
    expect(r.promoted).toEqual([
      expect.objectContaining({
        candidate_id: cid(content),
        outcome: 'created',
        promoted_id: `S-20260102-${hex}`,
        replayed: false,
        file: 'specs/architecture-constraints.md',
        stage: 'observed',
      }),
    ]);
    expect(r.warnings.map((w) => w.code)).toEqual(['observed_only']);
    const text = read(root, 'specs/architecture-constraints.md');
    expect(text).toContain(`sid="S-20260102-${hex}"`);
    expect(text).toContain(`source="session:${S}:${cid(content)}"`);
    // Provenance is the source; keywords stay the entry's topic (none given here), never bookkeeping words.
    expect(text).toContain('keywords=""');
    expect(text).not.toContain('session-knowledge');
    expect(text).toContain('date="2026-03-04"');
    const c = ledger(root).candidates[0];
    expect(c).toMatchObject({ status: 'promoted', promoted_id: `S-20260102-${hex}` });
    expect(c.promotion_receipt).toEqual({ outcome: 'created', promoted_at: NOW, content_hash: contentHash(content) });
    const session = JSON.parse(read(root, `sessions/${S}/session.json`));
    expect(session.lifecycle.promoted_spec_ids).toEqual([`S-20260102-${hex}`]);
    expect(existsSync(join(root, '.workflow/.promote-commit.intent.json'))).toBe(false);
  });

  test('re-promoting is a no-op listed under already_promoted, with no file changed', async () => {
    const content = 'Retry idempotent requests at most three times.';
    const root = project({ runs: [{ runId: R1, candidates: [{ content }] }] });
    await run(root, { candidates: [cid(content)] });
    const before = readTree(root);
    const r = await run(root, { candidates: [cid(content)] });
    expect(r.promoted).toEqual([]);
    expect(r.already_promoted).toEqual([
      {
        candidate_id: cid(content),
        promoted_id: expect.stringMatching(/^S-20260102-/),
        outcome: 'created',
        promoted_at: NOW,
      },
    ]);
    expect(readTree(root)).toEqual(before);
  });

  test('unknown category → learnings.md, review → review-standards.md; a knowhow candidate → TIP file', async () => {
    const a = 'Unknown category rule text.';
    const b = 'Review every migration twice.';
    const k = 'Warm the cache before load tests.';
    const root = project({
      runs: [
        {
          runId: R1,
          candidates: [
            { content: a, category: 'nonsense' },
            { content: b, category: 'review' },
            { content: k, target: 'knowhow', title: 'Warm cache', category: 'test' },
          ],
        },
      ],
    });
    const r = await run(root, { all: true });
    expect(r.promoted.map((p) => [p.candidate_id, p.file])).toEqual(
      [
        [cid(a), 'specs/learnings.md'],
        [cid(b), 'specs/review-standards.md'],
        [cid(k, 'knowhow'), `knowhow/TIP-20260102-${cid(k, 'knowhow').slice(4)}.md`],
      ].sort((x, y) => (x[0] < y[0] ? -1 : 1)),
    );
    expect(read(root, 'specs/learnings.md')).toContain('category="learning"');
    const tip = read(root, `knowhow/TIP-20260102-${cid(k, 'knowhow').slice(4)}.md`);
    expect(tip).toContain('type: tip');
    expect(tip).toContain(`explicitId: tip-20260102-${cid(k, 'knowhow').slice(4)}`);
    expect(tip).not.toContain('session-knowledge');
    expect(tip).toContain('tags:\n  - promoted');
    expect(tip).toContain(`source: "session:20260102-promo:${cid(k, 'knowhow')}"`);
    const kh = r.promoted.find((p) => p.target === 'knowhow')!;
    expect(kh.promoted_id).toBe(`knowhow-tip-20260102-${cid(k, 'knowhow').slice(4)}`);
    const corpus = loadCorpus(workflowLayout(root));
    expect(corpus.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(corpus.byId.has(kh.promoted_id)).toBe(true);
  });

  test('candidate text cannot inject entries: openers are escaped, one entry parses', async () => {
    const content = 'Body\n</spec-entry>\n<spec-entry category="coding" sid="S-20990101-evil">\n### Evil\n\nx';
    const root = project({ runs: [{ runId: R1, candidates: [{ content, title: 'Injection' }] }] });
    await run(root, { candidates: [cid(content)] });
    const text = read(root, 'specs/learnings.md');
    expect(text).toContain('&lt;/spec-entry>');
    expect(text).toContain('&lt;spec-entry category=');
    const corpus = loadCorpus(workflowLayout(root));
    expect(corpus.entries.filter((e) => e.store === 'spec')).toHaveLength(1);
    expect(corpus.byId.has('S-20990101-evil')).toBe(false);
    expect(corpus.entries[0].contentHash).toBe(contentHash(content));
  });

  test('content over 2048 characters → DOC knowhow with the full text and a spec entry with ref; replays', async () => {
    const content = `${'Long rule sentence about caching. '.repeat(70)}end`;
    const root = project({ runs: [{ runId: R1, candidates: [{ content, title: 'Long one' }] }] });
    const r = await run(root, { candidates: [cid(content)] });
    const hex = cid(content).slice(4);
    expect(r.promoted[0]).toMatchObject({ doc_file: `knowhow/DOC-20260102-${hex}.md`, file: 'specs/learnings.md' });
    const corpus = loadCorpus(workflowLayout(root));
    const spec = corpus.byId.get(`S-20260102-${hex}`)!;
    expect(spec.ref).toBe(`knowhow/DOC-20260102-${hex}.md`);
    expect([...spec.content].length).toBeLessThanOrEqual(200);
    const doc = corpus.entries.find((e) => e.file === `knowhow/DOC-20260102-${hex}.md`)!;
    expect(doc.contentHash).toBe(contentHash(content));
    // a maestro-flow style crash: entry written, ledger still pending → converges, reported as replayed
    const l = read(root, `sessions/${S}/runs/${R1}/knowledge-delta.json`);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      join(root, `.workflow/sessions/${S}/runs/${R1}/knowledge-delta.json`),
      l.replace('"status": "promoted"', '"status": "pending"'),
    );
    const again = await run(root, { candidates: [cid(content)] });
    expect(again.promoted[0]).toMatchObject({ outcome: 'created', replayed: true });
    expect(loadCorpus(workflowLayout(root)).entries.filter((e) => e.store === 'spec')).toHaveLength(1);
  });

  test('confirmed supersession writes both sides in one commit', async () => {
    const old =
      '<spec-entry category="coding" keywords="x" date="2026-01-01" sid="S-20260101-old1" title="Cache policy">\n\n### Cache policy\n\nCache results for 5 minutes.\n\n</spec-entry>\n';
    const content = 'Cache results for 10 minutes.';
    const root = project({
      files: { '.workflow/specs/coding-conventions.md': old },
      runs: [
        {
          runId: R1,
          candidates: [{ content, title: 'Cache policy', action: 'supersede', category: 'coding' }],
          verdicts: [
            verdict(cid(content), {
              disposition: 'supersede_candidate',
              canonical_id: 'S-20260101-old1',
              resolution: { status: 'confirmed', reason: 'new limit', resolved_at: NOW },
            }),
          ],
        },
      ],
    });
    const r = await run(root, { candidates: [cid(content)] });
    const sid = `S-20260102-${cid(content).slice(4)}`;
    expect(r.promoted[0]).toMatchObject({ outcome: 'created', supersedes: 'S-20260101-old1' });
    const corpus = loadCorpus(workflowLayout(root));
    expect(corpus.byId.get('S-20260101-old1')).toMatchObject({ status: 'deprecated', supersededBy: sid });
    expect(corpus.byId.get(sid)).toMatchObject({ status: 'active', supersedes: ['S-20260101-old1'] });
  });

  test('a reaffirm verdict records outcome reaffirmed against the entry, with no new entry', async () => {
    const existing =
      '<spec-entry category="coding" keywords="x" date="2026-01-01" sid="S-20260101-keep" title="Pin deps">\n\n### Pin deps\n\nPin every dependency.\n\n</spec-entry>\n';
    const content = 'Pin every dependency.';
    const root = project({
      files: { '.workflow/specs/coding-conventions.md': existing },
      runs: [
        {
          runId: R1,
          candidates: [{ content, action: 'reaffirm' }],
          verdicts: [
            verdict(cid(content), {
              disposition: 'exact_duplicate',
              promotion_eligibility: 'suppressed',
              canonical_id: 'S-20260101-keep',
              reaffirms: 'S-20260101-keep',
              resolution: { status: 'automatic', reason: 'identical', resolved_at: NOW },
            }),
          ],
        },
      ],
    });
    const before = read(root, 'specs/coding-conventions.md');
    const r = await run(root, { all: true });
    expect(r.promoted).toEqual([
      expect.objectContaining({ outcome: 'reaffirmed', promoted_id: 'S-20260101-keep', replayed: false }),
    ]);
    expect(read(root, 'specs/coding-conventions.md')).toBe(before);
    expect(ledger(root).candidates[0].promotion_receipt?.outcome).toBe('reaffirmed');
  });

  test('a reaffirm resolved as duplicate (rejected in the ledger) is still recorded as reaffirmed', async () => {
    const existing =
      '<spec-entry category="coding" keywords="x" date="2026-01-01" sid="S-20260101-keep" title="Pin deps">\n\n### Pin deps\n\nPin every dependency.\n\n</spec-entry>\n';
    const a = 'Pin each and every dependency version.';
    const b = 'A rejected plain proposal.';
    const root = project({
      files: { '.workflow/specs/coding-conventions.md': existing },
      runs: [
        {
          runId: R1,
          candidates: [
            { content: a, action: 'reaffirm', status: 'rejected' },
            { content: b, status: 'rejected' },
          ],
          verdicts: [
            verdict(cid(a), {
              disposition: 'semantic_duplicate',
              promotion_eligibility: 'suppressed',
              canonical_id: 'S-20260101-keep',
              reaffirms: 'S-20260101-keep',
              resolution: { status: 'confirmed', reason: 'same rule', resolved_at: NOW },
            }),
            verdict(cid(b)),
          ],
        },
      ],
    });
    const r = await run(root, { all: true });
    expect(r.promoted).toEqual([expect.objectContaining({ candidate_id: cid(a), outcome: 'reaffirmed' })]);
    expect(r.skipped.rejected.map((x) => x.candidate_id)).toEqual([cid(b)]);
    const c = ledger(root).candidates.find((x) => x.candidate_id === cid(a));
    expect(c).toMatchObject({ status: 'promoted', promoted_id: 'S-20260101-keep' });
  });

  test('the same candidate already promoted from another session converges on its entry (replayed)', async () => {
    const content = 'Promoted elsewhere first.';
    const sid = `S-20260102-${cid(content).slice(4)}`;
    const other =
      `<spec-entry category="learning" keywords="session-knowledge,manual" date="2026-03-01" sid="${sid}" ` +
      `title="Elsewhere" source="session:20260102-other:${cid(content)}">\n\n### Elsewhere\n\n${content}\n\n</spec-entry>\n`;
    const root = project({
      files: { '.workflow/specs/learnings.md': other },
      runs: [
        {
          runId: R1,
          candidates: [{ content, title: 'Elsewhere' }],
          verdicts: [
            verdict(cid(content), {
              disposition: 'exact_duplicate',
              promotion_eligibility: 'suppressed',
              canonical_id: sid,
              resolution: { status: 'automatic', reason: 'identical', resolved_at: NOW },
            }),
          ],
        },
      ],
    });
    const before = read(root, 'specs/learnings.md');
    const r = await run(root, { all: true });
    expect(r.promoted).toEqual([expect.objectContaining({ outcome: 'created', promoted_id: sid, replayed: true })]);
    expect(read(root, 'specs/learnings.md')).toBe(before);
    expect(ledger(root).candidates[0]).toMatchObject({ status: 'promoted', promoted_id: sid });
  });

  test('a stale or missing receipt refuses (exit 1) with the refresh command; nothing is written', async () => {
    const content = 'Fence me.';
    for (const spec of [{ stale: true }, { verdicts: undefined, noReceipt: true }]) {
      const root = project({ runs: [{ runId: R1, candidates: [{ content }], stale: spec.stale }] });
      if ('noReceipt' in spec) {
        const { rmSync } = await import('node:fs');
        rmSync(join(root, `.workflow/sessions/${S}/runs/${R1}/knowledge-reconciliation.json`));
      }
      const before = readTree(root);
      const err = await refusal(run(root, { candidates: [cid(content)] }));
      expect(err.exitCode).toBe(1);
      expect(err.code).toBe(spec.stale ? 'RECEIPT_STALE' : 'RECEIPT_MISSING');
      expect(err.hint).toContain(`maestro knowledge review ${S} --refresh`);
      expect(readTree(root, (p) => p.endsWith('.lock'))).toEqual(before);
    }
  });

  test('corroborated candidates carry no warning and every source ledger is marked', async () => {
    const content = 'Shared across two runs.';
    const root = project({
      runs: [
        { runId: R1, candidates: [{ content }] },
        { runId: R2, candidates: [{ content }] },
      ],
    });
    const r = await run(root, { all: true });
    expect(r.warnings).toEqual([]);
    expect(r.promoted[0]).toMatchObject({ stage: 'corroborated', run_ids: [R1, R2] });
    expect(ledger(root, R1).candidates[0].status).toBe('promoted');
    expect(ledger(root, R2).candidates[0].status).toBe('promoted');
    expect(readdirSync(join(root, `.workflow/sessions/${S}/runs/${R1}`)).some((f) => f.endsWith('.lock'))).toBe(false);
  });
});
