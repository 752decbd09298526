import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workflowLayout } from '@maestro/fs';
import { closeStores } from '@maestro/store';
import { afterEach, describe, expect, it } from 'vitest';
import { entry } from '../test/entries.js';
import { buildAudit } from './report.js';
import { saveReport, storedInputs, storedReport, storedSummary, validUntil } from './stored.js';

const entries = [
  entry('S-1-old', { date: '2026-01-01' }),
  entry('S-1-contested', {
    confidence: 'contested',
    conflict: { marker: 'CMK-1', note: 'disputed', date: '2026-02-01' },
  }),
  entry('knowhow-tip-a', { date: '2026-02-10' }),
  entry('S-1-gone', { date: '2025-01-01', status: 'deprecated' }),
];

/** The findings at `t`, without the stamp (what a stored result must reproduce). */
const findingsAt = (t: number) =>
  JSON.stringify(buildAudit({ scope: 'all', now: new Date(t), entries, issues: [], files: [] }).findings);

describe('validUntil (how long a stored audit holds)', () => {
  it('no finding changes between now and the returned instant (sampled over half a year)', () => {
    let t = Date.parse('2026-02-15T10:00:00Z');
    const end = Date.parse('2026-09-01T00:00:00Z');
    let boundaries = 0;
    while (t < end) {
      const until = validUntil(entries, new Date(t));
      expect(until).toBeGreaterThanOrEqual(t);
      const at = findingsAt(t);
      // Sampled through the window: the answer is the same everywhere in it.
      for (const f of [0.25, 0.5, 0.75, 1]) {
        const probe = Math.floor(Math.min(t + (until - t) * f - 1, end));
        if (probe > t) expect(findingsAt(probe)).toBe(at);
      }
      if (until >= end) break;
      boundaries++;
      // Never stuck: past the boundary (plus its margin) a new window starts.
      t = Math.max(until, t) + 2 * 60_000;
    }
    // Contested 30 days after 2026-02-01, then daily (its age in days is in the evidence), and the
    // freshness crossings of the three dates: plenty of boundaries, none of them skipped.
    expect(boundaries).toBeGreaterThan(100);
  });

  it('the window ends at the first time rule that moves', () => {
    const now = Date.parse('2026-02-15T10:00:00Z');
    // The contested entry passes its 30 days on 2026-03-03 (minus the one-minute margin).
    expect(validUntil(entries, new Date(now))).toBe(Date.parse('2026-03-03T00:00:00Z') - 60_000);
    // Without time rules (no active dated entries) a result holds until something else changes.
    expect(validUntil([entry('S-x', { date: null })], new Date(now))).toBe(Number.MAX_SAFE_INTEGER);
    // A boundary within the margin of now: not reusable at all.
    const limit = Date.parse('2026-03-03T00:00:00Z');
    expect(validUntil(entries, new Date(limit - 1000))).toBe(limit - 1000);
    // Once stale, the contested finding changes every UTC midnight.
    const later = Date.parse('2026-03-10T12:00:00Z');
    expect(validUntil(entries, new Date(later))).toBe(Date.parse('2026-03-11T00:00:00Z') - 60_000);
  });
});

describe('stored audit reports', () => {
  const roots: string[] = [];
  afterEach(() => {
    closeStores();
    for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
  });
  const project = () => {
    const root = mkdtempSync(join(tmpdir(), 'maestro-audit-stored-'));
    roots.push(root);
    for (const d of ['specs', 'knowhow', 'sessions']) mkdirSync(join(root, '.workflow', d), { recursive: true });
    return workflowLayout(root);
  };
  const now = new Date('2026-02-15T10:00:00Z');
  const report = buildAudit({ scope: 'all', now, entries, issues: [], files: [] });
  const inputs = (layout: ReturnType<typeof workflowLayout>, tag = 't') => {
    const s = storedInputs(layout, { tag, scope: 'all', prune: false, exposure: null });
    if (!s) throw new Error('no store');
    return s;
  };
  const extra = { now, validUntil: now.getTime() + 3_600_000, codeRefs: [] };

  it('comes back as it was saved, stored deflated; a row that does not hash to what was stored is a miss', () => {
    const layout = project();
    const s = inputs(layout);
    saveReport(s, report, extra);
    const later = new Date(now.getTime() + 1000);
    expect(storedReport(s, later)).toEqual({ ...report, generated_at: later.toISOString() });
    expect(storedSummary(s, later)?.counts).toEqual(report.counts);
    const row = s.store.db.prepare('SELECT report FROM audit_result WHERE key = ?').get(s.key) as { report: Buffer };
    expect(Buffer.isBuffer(row.report)).toBe(true);
    expect(row.report.length).toBeLessThan(JSON.stringify(report).length);
    // One byte changed: the hash of the stored bytes no longer matches.
    const bad = Buffer.from(row.report);
    bad[bad.length >> 1] ^= 0xff;
    s.store.db.prepare('UPDATE audit_result SET report = ? WHERE key = ?').run(bad, s.key);
    expect(storedReport(s, later)).toBeNull();
    // Plain JSON text where the deflated bytes were (a row of the older layout): a miss too.
    const text = JSON.stringify(report);
    s.store.db.prepare('UPDATE audit_result SET report = ? WHERE key = ?').run(text, s.key);
    expect(storedReport(s, later)).toBeNull();
  });

  it('keeps older reports only while they fit in the byte budget, the newest always', () => {
    const layout = project();
    const big = (i: number) => ({ ...report, notes: [randomBytes(3 * 1024 * 1024).toString('base64'), `#${i}`] });
    const keys: string[] = [];
    for (let i = 0; i < 5; i++) {
      const s = inputs(layout, `caller-${i}`);
      keys.push(s.key);
      const at = new Date(now.getTime() + i * 1000);
      saveReport(s, big(i) as typeof report, { ...extra, now: at });
    }
    const s = inputs(layout, 'caller-4');
    const rows = s.store.db
      .prepare('SELECT key, length(report) AS n FROM audit_result ORDER BY computed_at_ms DESC')
      .all() as { key: string; n: number }[];
    expect(rows[0].key).toBe(keys[4]);
    let total = 0;
    for (const r of rows) total += r.n;
    // Each deflates to about 3 MiB: not all five fit in 8 MiB, the two newest do.
    expect(rows.length).toBeLessThan(5);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(total).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(rows.map((r) => r.key)).toEqual(keys.slice(5 - rows.length).reverse());
    expect(storedReport(s, new Date(now.getTime() + 5000))?.notes.at(-1)).toBe('#4');
  });
});
