import type { KnowledgeEntry } from '@maestro/spec';
import { describe, expect, it } from 'vitest';
import { buildIndex, matchIndex } from './corpus-index.js';
import { candidate, entry } from './matcher.fixture.js';
import { reconcile } from './reconcile.js';
import { type MatchMemo, type MemoRow, replayTrace, TracingIndex } from './trace.js';

/** A memo in a Map that counts its hits (a get whose row was returned). */
function mapMemo() {
  const rows = new Map<string, MemoRow>();
  let gets = 0;
  const memo: MatchMemo = {
    get(key) {
      gets++;
      return rows.get(key) ?? null;
    },
    put(key, row) {
      rows.set(key, structuredClone(row));
    },
  };
  return { memo, rows, gets: () => gets };
}

function corpus(extra: KnowledgeEntry[] = []): KnowledgeEntry[] {
  return [
    entry('S-1', 'Logging', 'Rotate log files daily and keep them for thirty days.'),
    entry('S-2', 'Timestamps', 'Store all timestamps in UTC.'),
    entry('S-3', 'Images', 'Resize uploaded images to at most 2048 pixels.'),
    // Neighbours enough that retrieval never falls back on title trigrams.
    ...['service', 'worker', 'gateway', 'scheduler', 'importer', 'exporter'].map((w, i) =>
      entry(`S-1${i}`, `${w} logs`, `The ${w} writes its log files and timestamps in UTC for thirty days.`),
    ),
    ...extra,
  ];
}

const candidates = () => [
  candidate('Rotate the log files every day and keep them thirty days.'),
  candidate('Keep timestamps in UTC everywhere.'),
];

describe('traced matches', () => {
  it('a kept row is used when its trace replays, and gives what matching again gives', () => {
    const cs = candidates();
    const m = mapMemo();
    const plain = reconcile(cs, corpus());
    expect(reconcile(cs, corpus(), { memo: m.memo })).toEqual(plain);
    expect(m.rows.size).toBe(2);
    // Tamper with the kept matches: a row that replays is trusted, so the tampered value shows.
    for (const row of m.rows.values()) row.matches = [];
    const again = reconcile(cs, corpus(), { memo: m.memo });
    expect(again.every((v) => v.matches.length === 0)).toBe(true);
  });

  it('a row whose answers moved is matched again (an added entry changes n and the postings)', () => {
    const cs = candidates();
    const m = mapMemo();
    reconcile(cs, corpus(), { memo: m.memo });
    for (const row of m.rows.values()) row.matches = [];
    const grown = corpus([entry('S-4', 'Log rotation', 'Rotate log files every day; keep thirty days of them.')]);
    const got = reconcile(cs, grown, { memo: m.memo });
    expect(got).toEqual(reconcile(cs, grown));
    expect(got[0].matches.map((x) => x.knowledge_id)).toContain('S-4');
  });

  it('an edited entry that a candidate read moves its digest; one it never read does not', () => {
    const c = candidates()[0];
    const tracing = new TracingIndex(matchIndex(corpus()));
    reconcile([c], tracing);
    const digest = tracing.digest();
    expect(replayTrace(matchIndex(buildIndex(corpus())), tracing.trace)).toBe(digest);
    const edited = corpus();
    edited[0] = entry('S-1', 'Logging', 'Rotate log files weekly and keep them for ninety days.');
    expect(replayTrace(matchIndex(buildIndex(edited)), tracing.trace)).not.toBe(digest);
    const elsewhere = corpus();
    elsewhere[2] = entry('S-3', 'Images', 'Resize uploaded images to at most 4096 pixels.');
    // S-3 shares no key with the candidate, and n is unchanged: the same answers.
    expect(replayTrace(matchIndex(buildIndex(elsewhere)), tracing.trace)).toBe(digest);
  });

  it('a trace that read the title trigrams is not kept', () => {
    const m = mapMemo();
    // A candidate whose words retrieve (almost) nothing falls back on title trigrams.
    reconcile([candidate('Zyxw qvut', { title: 'Loggin' })], corpus(), { memo: m.memo });
    expect(m.gets()).toBe(1);
    expect(m.rows.size).toBe(0);
  });
});
