import { describe, expect, it } from 'vitest';
import { entry } from '../test/entries.js';
import { buildAudit } from './report.js';
import { validUntil } from './stored.js';

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
