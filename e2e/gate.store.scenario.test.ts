import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workflowLayout } from '@maestro/fs';
import { closeStores, openStore } from '@maestro/store';
import { runMaestro, runMaestroAsync, tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';

// The gate reuses stored audit results and per-session checks (store section `audit`). Whatever the
// store holds, it must answer exactly what a run without `.workflow/.index/` answers, and every kind
// of input change must reach the answer.

const T0 = '2026-06-01T09:00:00.000Z';
const S = '20260601-release';
const R = '20260601-001-build';
const SPEC = '.workflow/specs/debug-notes.md';

function project() {
  const root = tmpProject();
  const m = (args: string[], now = T0) => runMaestro([...args, '--workflow-root', root], { env: { MAESTRO_NOW: now } });
  expect(m(['init']).code).toBe(0);
  expect(m(['session', 'create', '--id', S]).code).toBe(0);
  expect(m(['run', 'start', '--session', S, '--id', R]).code).toBe(0);
  const staged = m([
    'knowledge',
    'stage',
    'spec',
    'Webhook retries',
    'Retry webhooks with backoff.',
    '--session',
    S,
    '--run',
    R,
  ]);
  expect(staged.code).toBe(0);
  expect(m(['run', 'complete', R, '--session', S, '--seal']).code).toBe(0);
  expect(m(['spec', 'add', 'debug', 'Flaky CI', 'Re-run the failing job once before investigating.']).code).toBe(0);
  return { root, m };
}

type Project = ReturnType<typeof project>;

const gateDoc = (p: Project, now = T0) => {
  const r = p.m(['knowledge', 'gate', '--json'], now);
  expect([0, 1]).toContain(r.code);
  return { code: r.code, doc: r.json<Record<string, unknown>>(), stderr: r.stderr };
};

/**
 * The gate with the store as the last command left it, then without `.workflow/.index/`, then
 * warm again: all three must be the same document. Returns it.
 */
function sameWithAndWithoutStore(p: Project, now = T0) {
  const warm = gateDoc(p, now);
  rmSync(join(p.root, '.workflow/.index'), { recursive: true, force: true });
  const cold = gateDoc(p, now);
  const again = gateDoc(p, now);
  expect(warm.doc).toEqual(cold.doc);
  expect(again.doc).toEqual(cold.doc);
  expect(warm.code).toBe(cold.code);
  return cold.doc as {
    ok: boolean;
    audit: { p0: number; p1: number; p2: number };
    reasons: { code: string; run_id: string | null }[];
  };
}

describe('knowledge gate with stored audit results', { timeout: 300_000 }, () => {
  it('answers the same warm, cold and after rm -rf .index, and every kind of input change reaches it', () => {
    const p = project();
    const first = sameWithAndWithoutStore(p);
    expect(first.reasons.map((r) => r.code)).toEqual(['missing-receipt']);

    // A new receipt.
    expect(p.m(['knowledge', 'review', S, '--refresh']).code).toBe(0);
    const reviewed = sameWithAndWithoutStore(p);
    expect(reviewed.reasons.map((r) => r.code)).not.toContain('missing-receipt');

    // A spec edit by hand: an entry without a sid (a P2 finding) and an exact duplicate (P1).
    const entry = (t: string) =>
      `\n<spec-entry category="debug" keywords="ci" date="2026-06-01" title="${t}">\n\n### ${t}\n\nSame body.\n\n</spec-entry>\n`;
    appendFileSync(join(p.root, SPEC), entry('Hand one') + entry('Hand one'));
    const edited = sameWithAndWithoutStore(p);
    expect(edited.audit.p2).toBeGreaterThan(reviewed.audit.p2);

    // A ledger change: a damaged ledger in a new run of the session.
    const run2 = join(p.root, `.workflow/sessions/${S}/runs/20260601-002-fix`);
    mkdirSync(run2, { recursive: true });
    writeFileSync(join(run2, 'run.json'), readFileSync(join(p.root, `.workflow/sessions/${S}/runs/${R}/run.json`)));
    writeFileSync(join(run2, 'knowledge-delta.json'), '{ broken');
    const damaged = sameWithAndWithoutStore(p);
    expect(damaged.reasons.map((r) => r.code)).toContain('invalid-run');
    expect(damaged).not.toEqual(edited);
    rmSync(run2, { recursive: true });
    expect(sameWithAndWithoutStore(p)).toEqual(edited);

    // A ledger change through the CLI: a second staged candidate (its run has no receipt).
    expect(p.m(['run', 'start', '--session', S, '--id', '20260601-003-more']).code).toBe(0);
    expect(
      p.m([
        'knowledge',
        'stage',
        'spec',
        'Timeouts',
        'Time out calls after 5 s.',
        '--session',
        S,
        '--run',
        '20260601-003-more',
      ]).code,
    ).toBe(0);
    const staged = sameWithAndWithoutStore(p);
    expect(staged.reasons.map((r) => r.run_id)).toContain('20260601-003-more');
  });

  it('time passing an expiry invalidates the stored result (stale contested, freshness decay)', () => {
    const p = project();
    const sid = p
      .m(['spec', 'add', 'debug', 'Retry policy', 'Retry idempotent calls three times.', '--json'])
      .json<{ sid: string }>().sid;
    expect(p.m(['spec', 'conflict', 'mark', sid, '--note', 'two teams disagree']).code).toBe(0);
    const before = sameWithAndWithoutStore(p);
    // Warm store computed at T0; 31 days later the contested entry is stale: a fresh run says so.
    const later = '2026-07-02T09:00:00.000Z';
    gateDoc(p); // make sure the store holds the T0 result
    const after = sameWithAndWithoutStore(p, later);
    expect(after.audit.p1).toBe(before.audit.p1 + 1);
    // One more day: the finding's day count moves (a P1 with another evidence text, same counts).
    const dayAfter = sameWithAndWithoutStore(p, '2026-07-03T09:00:00.000Z');
    expect(dayAfter.audit).toEqual(after.audit);
    // Half a year on, every entry has decayed below the freshness threshold (P2 aggregate finding).
    const stale = sameWithAndWithoutStore(p, '2026-12-01T09:00:00.000Z');
    expect(stale.audit.p2).toBeGreaterThan(after.audit.p2);
    // The clock going back never reuses a result computed later.
    expect(gateDoc(p).doc).toEqual(gateDoc(p).doc);
    expect(sameWithAndWithoutStore(p)).toEqual(before);
  });

  it('a damaged store file or a tampered row costs a recomputation, never another answer', () => {
    const p = project();
    const reference = sameWithAndWithoutStore(p);
    const db = join(p.root, '.workflow/.index/maestro.db');
    // A tampered row: the stored summary says the audit found nothing.
    const store = openStore(workflowLayout(p.root));
    const rows = store.db.prepare('SELECT key, summary FROM audit_result').all() as { key: string; summary: string }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      store.db
        .prepare('UPDATE audit_result SET summary = ? WHERE key = ?')
        .run(JSON.stringify({ counts: { P0: 0, P1: 0, P2: 0 }, p0: [] }), r.key);
    }
    store.db.prepare('UPDATE audit_value SET value = \'{"session":{},"reasons":[]}\'').run();
    closeStores();
    expect(gateDoc(p).doc).toEqual(reference);
    // A database file that is not a database: moved aside, rebuilt, a warning, the same answer.
    writeFileSync(db, 'this is not a database');
    const damaged = gateDoc(p);
    expect(damaged.doc).toEqual(reference);
    expect(damaged.stderr).toMatch(/maestro\.db/);
    expect(gateDoc(p).doc).toEqual(reference);
  });

  it('knowledge audit (with and without --prune) answers the same from a stored result, and sees a change', () => {
    const p = project();
    const audit = (...args: string[]) => p.m(['knowledge', 'audit', ...args, '--json']).json<Record<string, unknown>>();
    for (const args of [[], ['--prune'], ['--scope', 'spec']]) {
      const cold = audit(...args);
      expect(audit(...args)).toEqual(cold); // warm
      rmSync(join(p.root, '.workflow/.index'), { recursive: true, force: true });
      expect(audit(...args)).toEqual(cold);
    }
    const before = audit('--prune') as { counts: { P1: number } };
    const dup = `\n<spec-entry category="debug" keywords="ci" date="2026-06-01" title="Flaky CI">\n\n### Flaky CI\n\nRe-run the failing job once before investigating.\n\n</spec-entry>\n`;
    appendFileSync(join(p.root, SPEC), dup);
    const after = audit('--prune') as { counts: { P1: number } };
    expect(after.counts.P1).toBeGreaterThan(before.counts.P1);
    rmSync(join(p.root, '.workflow/.index'), { recursive: true, force: true });
    expect(audit('--prune')).toEqual(after);
  });

  it('concurrent gates on a cold store all answer the same', async () => {
    const p = project();
    const reference = sameWithAndWithoutStore(p);
    rmSync(join(p.root, '.workflow/.index'), { recursive: true, force: true });
    const runs = await Promise.all(
      [1, 2, 3].map(() =>
        runMaestroAsync(['knowledge', 'gate', '--json', '--workflow-root', p.root], { env: { MAESTRO_NOW: T0 } }),
      ),
    );
    for (const r of runs) expect(r.json()).toEqual(reference);
    expect(gateDoc(p).doc).toEqual(reference);
  });
});
