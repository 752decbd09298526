// The synthetic corpus's planted pairs (bench/lib/gen-corpus.mjs, the corpus `bench/reconcile.mjs`
// times): candidates drawn like that bench's — near-duplicates (an entry minus its first word, plus
// "Also document it.") and novel text from the corpus vocabulary (every word common) — reconciled
// in-process. Reports near-duplicates whose planted source is the canonical target, and the share
// of novel candidates sent to review.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workflowLayout } from '../../packages/fs/dist/index.js';
import { matchCandidates, reconcile } from '../../packages/reconcile/dist/index.js';
import { loadCorpus } from '../../packages/spec/dist/index.js';
import { generateCorpus, rng } from './gen-corpus.mjs';

/**
 * The planted pairs as labelled rows for the quality bench (set `synthetic`): a near-duplicate's
 * expected verdict is a duplicate or extension of its source (review), a novel candidate's `unique`
 * (or `related`). `policy` is given, the rows carry the policy-independent matches.
 */
export function plantedPairs({ entries = 10_000, near = 20, novel = 50, rowsOnly = false } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'maestro-planted-'));
  try {
    generateCorpus(root, { entries, seed: 7 });
    const corpus = loadCorpus(workflowLayout(root));
    const active = corpus.entries.filter((e) => e.status === 'active');
    const r = rng(42);
    const words = active.slice(0, 500).flatMap((e) => e.content.split(/\s+/));
    const cands = [];
    for (let i = 0; i < near + novel; i++) {
      const e = active[Math.floor(r() * active.length)];
      const kind = i < near ? 'near' : 'novel';
      const content =
        kind === 'near'
          ? `${e.content.split(/\s+/).slice(1).join(' ')} Also document it.`
          : `${Array.from({ length: 14 + (i % 9) }, () => words[Math.floor(r() * words.length)]).join(' ')}.`;
      const c = { candidate_id: `KDC-${String(i).padStart(16, '0')}`, target: 'spec', action: 'propose' };
      cands.push({ kind, source: e.id, c: { ...c, title: content.slice(0, 60), content, evidence_refs: [] } });
    }
    if (rowsOnly) {
      const matches = matchCandidates(
        cands.map((x) => x.c),
        corpus,
      );
      return cands.map((x, i) => ({
        set: 'synthetic',
        case: {
          id: `${x.kind}-${i}`,
          expected:
            x.kind === 'near'
              ? { disposition: 'extends', canonical_id: x.source, acceptable: ['semantic_duplicate'] }
              : { disposition: 'unique', canonical_id: null, acceptable: ['related'] },
        },
        candidate: x.c,
        matches: matches[i],
      }));
    }
    const verdicts = reconcile(
      cands.map((x) => x.c),
      corpus,
    );
    const rows = cands.map((x, i) => ({ ...x, v: verdicts[i] }));
    const nearRows = rows.filter((x) => x.kind === 'near');
    const novelRows = rows.filter((x) => x.kind === 'novel');
    return {
      entries,
      near_canonical: [nearRows.filter((x) => x.v.canonical_id === x.source).length, nearRows.length],
      near_review: [nearRows.filter((x) => x.v.promotion_eligibility !== 'eligible').length, nearRows.length],
      novel_review: [novelRows.filter((x) => x.v.promotion_eligibility !== 'eligible').length, novelRows.length],
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
