import { describe, expect, it } from 'vitest';
import { entry, NOW } from '../test/entries.js';
import { type AuditInput, buildAudit } from './report.js';
import type { Finding } from './schemas.js';

function audit(over: Partial<AuditInput>, prune = false) {
  return buildAudit({ scope: 'all', now: NOW, entries: [], issues: [], files: [], ...over }, { prune });
}
const subtypes = (fs: Finding[]) => fs.map((f) => `${f.priority} ${f.store}/${f.subtype} ${f.target}`);
const only = (fs: Finding[], subtype: string) => fs.filter((f) => f.subtype === subtype);

describe('corpus findings', () => {
  it('missing stable id (P2 review, with the backfill command)', () => {
    const r = audit({ entries: [entry('spec-abc', { hasSid: false }), entry('S-1-a')] });
    expect(subtypes(r.findings)).toEqual(['P2 spec/missing-stable-id spec-abc']);
    expect(r.findings[0].command).toBe('maestro spec backfill-sid');
    expect(r.findings[0].id).toMatch(/^KAU-[a-f0-9]{10}$/);
  });

  it('unsynchronised supersession is P1 deprecate and matches its plan action; no plan without --prune', () => {
    const entries = [entry('S-1-old'), entry('S-1-new', { supersedes: ['S-1-old'] })];
    const plain = audit({ entries });
    expect(subtypes(plain.findings)).toEqual(['P1 spec/unsynchronized-supersession S-1-old']);
    expect(plain.findings[0].recommended_action).toBe('deprecate');
    expect(plain.prune_plan).toBeNull();
    const pruned = audit({ entries }, true);
    expect(pruned.prune_plan?.actions[0].finding_id).toBe(pruned.findings[0].id);
  });

  it('one-sided link on a deprecated entry', () => {
    const r = audit({ entries: [entry('S-1-a', { status: 'deprecated' }), entry('S-1-b', { supersedes: ['S-1-a'] })] });
    expect(subtypes(r.findings)).toEqual(['P1 spec/one-sided-link S-1-a']);
    expect(r.findings[0].evidence).toContain('has no superseded-by="S-1-b"');
  });

  it('dangling links and cycles are P0 review and never planned', () => {
    const r = audit(
      {
        entries: [
          entry('S-1-a', { supersededBy: 'S-1-gone' }),
          entry('S-1-b', { supersedes: ['S-1-missing'] }),
          entry('S-1-x', { supersedes: ['S-1-y'] }),
          entry('S-1-y', { supersedes: ['S-1-x'] }),
          entry('S-1-self', { supersededBy: 'S-1-self' }),
        ],
      },
      true,
    );
    expect(subtypes(r.findings)).toEqual([
      'P0 spec/dangling-superseded-by S-1-a',
      'P0 spec/dangling-supersedes S-1-b',
      'P0 spec/supersession-cycle S-1-self',
      'P0 spec/supersession-cycle S-1-x',
    ]);
    expect(only(r.findings, 'supersession-cycle')[1].related).toEqual(['S-1-y']);
    expect(r.prune_plan?.actions).toEqual([]);
  });

  it('ambiguous successors and shared ids are P0', () => {
    const r = audit({
      entries: [
        entry('S-1-a', { supersededBy: 'S-1-b' }),
        entry('S-1-b'),
        entry('S-1-c', { supersedes: ['S-1-a'] }),
        entry('S-1-d', { line: 3 }),
        entry('S-1-d', { line: 30 }),
      ],
    });
    expect(subtypes(r.findings)).toEqual(['P0 spec/ambiguous-supersession S-1-a', 'P0 spec/duplicate-id S-1-d']);
  });

  it('exact duplicates name the canonical entry; a blocked one says why it is not planned', () => {
    const same = { title: 'Use UTC', content: 'Store times in UTC.' };
    const r = audit({
      entries: [entry('S-1-b', same), entry('S-1-a', same), entry('spec-x', { ...same, hasSid: false })],
    });
    const dups = only(r.findings, 'exact-duplicate');
    expect(dups.map((f) => [f.target, f.related, f.recommended_action])).toEqual([
      ['S-1-b', ['S-1-a'], 'deprecate'],
      ['spec-x', ['S-1-a'], 'review'],
    ]);
    expect(dups[1].evidence).toContain('no sid yet');
  });

  it('stale contested entries (older than 30 days) are P1 review', () => {
    const r = audit({
      entries: [
        entry('S-1-old', {
          confidence: 'contested',
          conflict: { marker: 'CMK-1', note: 'disputed', date: '2026-01-01' },
        }),
        entry('S-1-new', { confidence: 'contested', conflict: { marker: 'CMK-2', note: null, date: '2026-02-20' } }),
      ],
    });
    expect(subtypes(only(r.findings, 'stale-contested'))).toEqual(['P1 spec/stale-contested S-1-old']);
    expect(r.spec?.contested).toBe(2);
  });

  it('stale active entries use the documented half-lives (spec 60 d → ~108 d; knowhow 30 d → ~54 d)', () => {
    const r = audit({
      entries: [
        entry('S-1-fresh', { date: '2025-11-20' }), // 101 days
        entry('S-1-stale', { date: '2025-11-10' }), // 111 days
        entry('S-1-gone', { date: '2025-01-01', status: 'deprecated' }),
        entry('knowhow-a', { date: '2026-01-10' }), // 50 days
        entry('knowhow-b', { date: '2026-01-01' }), // 59 days
      ],
    });
    const stale = only(r.findings, 'stale-active-observation');
    expect(stale.map((f) => [f.store, f.related, f.recommended_action])).toEqual([
      ['spec', ['S-1-stale'], 'observe'],
      ['knowhow', ['knowhow-b'], 'observe'],
    ]);
    expect(stale.every((f) => f.priority === 'P2')).toBe(true);
  });

  it('knowhow missing title or type, invalid frontmatter, spec parse problems', () => {
    const r = audit({
      entries: [entry('knowhow-a', { titleSource: 'filename', type: null }), entry('knowhow-b')],
      issues: [
        {
          file: '.workflow/knowhow/B.md',
          line: 2,
          severity: 'error',
          code: 'FRONTMATTER_INVALID',
          message: 'bad yaml',
        },
        {
          file: '.workflow/specs/x.md',
          line: 7,
          severity: 'error',
          code: 'SPEC_CATEGORY',
          message: 'unknown category',
        },
        { file: '.workflow/specs/x.md', line: 9, severity: 'warning', code: 'SPEC_ODD', message: 'odd' },
      ],
    });
    expect(subtypes(r.findings)).toEqual([
      'P1 spec/invalid-spec-entry .workflow/specs/x.md',
      'P1 knowhow/invalid-frontmatter .workflow/knowhow/B.md',
      'P1 knowhow/missing-required-metadata knowhow-a',
      'P2 spec/spec-warning .workflow/specs/x.md',
    ]);
    expect(r.findings[2].evidence).toBe('frontmatter has no title and no type');
    expect(r.knowhow).toEqual({ total: 2, active: 2, deprecated: 0, invalid: 1 });
  });

  it('a knowhow file with broken frontmatter is reported once, not also as missing metadata', () => {
    const r = audit({
      entries: [entry('knowhow-b', { titleSource: 'filename', type: null })],
      issues: [{ file: '.workflow/knowhow/B.md', severity: 'error', code: 'FRONTMATTER_INVALID', message: 'bad yaml' }],
    });
    expect(subtypes(r.findings)).toEqual(['P1 knowhow/invalid-frontmatter .workflow/knowhow/B.md']);
  });

  it('ghost code references and dangling refs', () => {
    const r = audit({
      entries: [
        entry('knowhow-a'),
        entry('S-1-a', { ref: 'knowhow/DOC-1.md' }),
        entry('S-1-b', { ref: 'knowhow/A.md' }),
      ],
      files: ['knowhow/A.md'],
      codeRefs: [
        { id: 'knowhow-a', file: 'knowhow/A.md', path: 'src/gone.ts', exists: false },
        { id: 'knowhow-a', file: 'knowhow/A.md', path: 'src/here.ts', exists: true },
      ],
    });
    expect(subtypes(r.findings)).toEqual(['P1 spec/dangling-ref S-1-a', 'P1 knowhow/ghost-code-reference knowhow-a']);
  });

  it('scope limits corpus findings but not pipeline ones', () => {
    const entries = [entry('spec-x', { hasSid: false }), entry('knowhow-a', { type: null })];
    const pipeline = {
      sessions: [],
      problems: [
        {
          kind: 'session' as const,
          session_id: '20260101-s',
          run_id: null,
          file: '.workflow/sessions/20260101-s',
          message: 'bad',
        },
      ],
      pendingTargets: [],
    };
    expect(subtypes(audit({ entries, pipeline, scope: 'spec' }).findings)).toEqual([
      'P1 pipeline/invalid-session-authority 20260101-s',
      'P2 spec/missing-stable-id spec-x',
    ]);
    const k = audit({ entries, pipeline, scope: 'knowhow' });
    expect(subtypes(k.findings)).toEqual([
      'P1 knowhow/missing-required-metadata knowhow-a',
      'P1 pipeline/invalid-session-authority 20260101-s',
    ]);
    expect(k.spec).toBeNull();
  });

  it('finding ids are stable across evidence changes and orderings', () => {
    const a = audit({
      entries: [entry('S-1-old', { date: '2026-01-01' }), entry('S-1-new', { supersedes: ['S-1-old'] })],
    });
    const b = audit({
      entries: [entry('S-1-new', { supersedes: ['S-1-old'] }), entry('S-1-old', { date: '2020-01-01' })],
    });
    expect(a.findings[0].id).toBe(b.findings.find((f) => f.subtype === 'unsynchronized-supersession')?.id);
  });
});

describe('pipeline findings', () => {
  it('reports unreadable files (never fatal) and the observed vs corroborated backlog', () => {
    const r = audit({
      pipeline: {
        sessions: [
          {
            session_id: '20260101-a',
            runs: 2,
            ledgers: 2,
            receipts: 1,
            pending_observed: 3,
            pending_corroborated: 1,
            promoting: 0,
            promoted: 2,
            rejected: 0,
          },
          {
            session_id: '20260101-b',
            runs: 1,
            ledgers: 1,
            receipts: 0,
            pending_observed: 2,
            pending_corroborated: 0,
            promoting: 0,
            promoted: 0,
            rejected: 1,
          },
        ],
        problems: [
          {
            kind: 'ledger',
            session_id: '20260101-a',
            run_id: '20260101-002-x',
            file: '.workflow/sessions/20260101-a/runs/20260101-002-x/knowledge-delta.json',
            message: 'x'.repeat(900),
          },
          {
            kind: 'receipt',
            session_id: '20260101-a',
            run_id: '20260101-001-x',
            file: 'r.json',
            message: 'bad receipt',
          },
          { kind: 'run', session_id: '20260101-b', run_id: '20260101-009-x', file: 'run.json', message: 'bad run' },
        ],
        pendingTargets: [],
      },
    });
    expect(subtypes(r.findings)).toEqual([
      'P1 pipeline/invalid-reconciliation-receipt 20260101-a/20260101-001-x',
      'P1 pipeline/invalid-knowledge-ledger 20260101-a/20260101-002-x',
      'P1 pipeline/invalid-run 20260101-b/20260101-009-x',
      'P2 pipeline/corroborated-promotion-backlog 20260101-a',
      'P2 pipeline/observed-backlog 20260101-b',
    ]);
    expect(r.findings[1].evidence.length).toBeLessThanOrEqual(500);
    expect(r.pipeline).toMatchObject({
      sessions: 2,
      runs: 3,
      pending_observed: 5,
      pending_corroborated: 1,
      promoted: 2,
      invalid_files: 3,
    });
  });
});

describe('usage findings', () => {
  const many = Array.from({ length: 40 }, (_, i) => entry(`S-1-${String(i).padStart(2, '0')}`));

  it('flags exposure concentration (scenario 52) as observe only, never as a prune action', () => {
    const exposure = new Map(many.slice(0, 3).map((e) => [e.id, 100]));
    exposure.set(many[10].id, 1);
    const r = audit({ entries: many, usage: { exposure, consumption: null } }, true);
    const f = only(r.findings, 'exposure-concentration');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ priority: 'P2', store: 'usage', recommended_action: 'observe' });
    expect(r.usage.exposure.top10_share).toBe(1);
    expect(r.usage.consumption.available).toBe(false);
    expect(r.prune_plan?.actions).toEqual([]);
  });

  it('an even spread is not concentration; ten entries or fewer are never judged', () => {
    const even = new Map(many.map((e) => [e.id, 5]));
    expect(
      only(
        audit({ entries: many, usage: { exposure: null, consumption: even } }).findings,
        'consumption-concentration',
      ),
    ).toEqual([]);
    const few = many.slice(0, 10);
    const skewed = new Map([[few[0].id, 1000]]);
    expect(audit({ entries: few, usage: { exposure: skewed, consumption: null } }).findings).toEqual([]);
  });

  it('few events are never judged: one search shows ten entries, which is 100 % top-10 by construction', () => {
    const oneSearch = new Map(many.slice(0, 10).map((e) => [e.id, 1]));
    expect(
      only(
        audit({ entries: many, usage: { exposure: oneSearch, consumption: null } }).findings,
        'exposure-concentration',
      ),
    ).toEqual([]);
  });

  it('computes the Gini coefficient over all active entries', () => {
    const r = audit({ entries: many, usage: { exposure: new Map([[many[0].id, 10]]), consumption: null } });
    expect(r.usage.exposure.gini).toBeCloseTo(1 - 1 / 40, 4);
  });
});
