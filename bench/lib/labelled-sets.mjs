// Labelled sets in the reconcile-v1 design (`corpus/.workflow/…` + `cases.jsonl`): loading, running the
// matcher in-process exactly as a run's receipt would (one candidate per case, `run:` evidence), and the
// figures of the set's README (lenient macro-F1, canonical accuracy, safety, over-review, exact recall).
// Safety is counted from the verdict's `promotion_eligibility`, the field a release pipeline reads.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash } from '../../packages/core/dist/index.js';
import { workflowLayout } from '../../packages/fs/dist/index.js';
import { matchCandidates, reconcile } from '../../packages/reconcile/dist/index.js';
import { loadCorpus } from '../../packages/spec/dist/index.js';

export const DISPOSITIONS = [
  'unique',
  'exact_duplicate',
  'semantic_duplicate',
  'extends',
  'related',
  'potential_conflict',
  'supersede_candidate',
];
/** The dispositions a person must look at (safety counts these left eligible). */
export const REVIEW_NEEDED = new Set(['semantic_duplicate', 'extends', 'potential_conflict', 'supersede_candidate']);
const REVIEW = REVIEW_NEEDED;
const ELIGIBLE = new Set(['unique', 'related']);

const normalized = (s) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
const candidateId = (target, content) =>
  `KDC-${createHash('sha256')
    .update(`${target}\u0000${normalized(content)}`)
    .digest('hex')
    .slice(0, 16)}`;

/** Every set directory under `dir` that holds `cases.jsonl` and `corpus/.workflow`. */
export function findSets(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => existsSync(join(dir, n, 'cases.jsonl')) && existsSync(join(dir, n, 'corpus/.workflow')))
    .sort()
    .map((name) => ({ name, dir: join(dir, name) }));
}

export function loadSet({ name, dir }) {
  const corpus = loadCorpus(workflowLayout(join(dir, 'corpus')));
  const cases = readFileSync(join(dir, 'cases.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      try {
        return JSON.parse(l);
      } catch (e) {
        throw new Error(`${join(dir, 'cases.jsonl')}:${i + 1}: ${e.message}`);
      }
    });
  return { name, dir, corpus, cases };
}

/** Runs the matcher on every case of a set; `policy` is the fitted decision parameters (or undefined). */
export function predictSet(set, policy) {
  const run = 'run:20261129-001-holdout';
  const candidates = set.cases.map((c) => ({
    candidate_id: candidateId(c.target, c.content),
    target: c.target,
    action: c.action,
    title: c.title,
    content: c.content,
    category: c.category ?? null,
    evidence_refs: [run],
  }));
  const verdicts = reconcile(candidates, set.corpus, policy ? { policy } : {});
  return set.cases.map((c, i) => ({ case: c, verdict: verdicts[i] }));
}

const canonicalOk = (c, v) => {
  const want = [c.expected.canonical_id, ...(c.expected.acceptable_canonical ?? [])];
  return v.canonical_id !== null && want.includes(v.canonical_id);
};
const lenientOk = (c, d) => d === c.expected.disposition || (c.expected.acceptable ?? []).includes(d);

/** The set README's figures over `rows` ({ case, verdict }). */
export function measure(rows) {
  const per = Object.fromEntries(DISPOSITIONS.map((d) => [d, { tp: 0, pred: 0, support: 0 }]));
  let canonN = 0;
  let canonOk = 0;
  let safetyN = 0;
  let unsafe = 0;
  let unsafeByDisposition = 0;
  let eligibleN = 0;
  let overReview = 0;
  let lenient = 0;
  const unsafeIds = [];
  for (const { case: c, verdict: v } of rows) {
    const exp = c.expected.disposition;
    const got = lenientOk(c, v.disposition) ? exp : v.disposition;
    per[exp].support++;
    per[got].pred++;
    if (got === exp) {
      per[exp].tp++;
      lenient++;
    }
    if (exp !== 'unique') {
      canonN++;
      if (canonicalOk(c, v)) canonOk++;
    }
    if (REVIEW.has(exp)) {
      safetyN++;
      if (v.promotion_eligibility === 'eligible') {
        unsafe++;
        unsafeIds.push(c.id);
      }
      if (ELIGIBLE.has(v.disposition)) unsafeByDisposition++;
    }
    if (ELIGIBLE.has(exp)) {
      eligibleN++;
      if (v.promotion_eligibility !== 'eligible' && !lenientOk(c, v.disposition)) overReview++;
    }
  }
  const f1s = DISPOSITIONS.map((d) => {
    const { tp, pred, support } = per[d];
    const p = pred ? tp / pred : 0;
    const r = support ? tp / support : 0;
    return p + r > 0 ? (2 * p * r) / (p + r) : 0;
  });
  const present = DISPOSITIONS.filter((d) => per[d].support > 0);
  return {
    cases: rows.length,
    accuracy_lenient: rows.length ? lenient / rows.length : 0,
    macro_f1_lenient: present.length
      ? present.reduce((s, d) => s + f1s[DISPOSITIONS.indexOf(d)], 0) / present.length
      : 0,
    canonical_accuracy: canonN ? canonOk / canonN : 1,
    canonical: [canonOk, canonN],
    safety: safetyN ? unsafe / safetyN : 0,
    safety_n: [unsafe, safetyN],
    safety_by_disposition: safetyN ? unsafeByDisposition / safetyN : 0,
    over_review: eligibleN ? overReview / eligibleN : 0,
    over_review_n: [overReview, eligibleN],
    exact_recall: per.exact_duplicate.support ? per.exact_duplicate.tp / per.exact_duplicate.support : 1,
    unsafe: unsafeIds,
  };
}

/** k folds of a set's cases, deterministic (stratified by expected disposition, round-robin by id order). */
export function folds(cases, k) {
  const out = Array.from({ length: k }, () => []);
  const byDisposition = new Map();
  for (const c of [...cases].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const l = byDisposition.get(c.expected.disposition) ?? [];
    l.push(c);
    byDisposition.set(c.expected.disposition, l);
  }
  let i = 0;
  for (const d of [...byDisposition.keys()].sort()) for (const c of byDisposition.get(d)) out[i++ % k].push(c.id);
  return out.map((ids) => new Set(ids));
}

const RUN_REF = 'run:20261129-001-holdout';

/** Rows of a reconcile-v1-style set: each case with the matches found against the set's corpus. */
export function setRows(s) {
  const set = loadSet(s);
  const candidates = set.cases.map((c, i) => ({
    candidate_id: `KDC-${String(i).padStart(16, '0')}`,
    target: c.target,
    action: c.action,
    title: c.title,
    content: c.content,
    category: c.category ?? null,
    evidence_refs: [RUN_REF],
  }));
  const matches = matchCandidates(candidates, set.corpus);
  return set.cases.map((c, i) => ({ set: s.name, case: c, candidate: candidates[i], matches: matches[i] }));
}

const entry = (e, i) => ({
  id: e.id,
  store: e.store ?? 'spec',
  title: e.title ?? '',
  content: e.content,
  status: e.status ?? 'active',
  supersedes: e.supersedes ?? [],
  supersededBy: e.supersededBy ?? null,
  file: e.file ?? `specs/case-${i}.md`,
  line: e.store === 'knowhow' ? null : (e.line ?? i + 1),
  contentHash: contentHash(e.content),
});

/** Rows of the older per-case JSON sets (each case carries its own small corpus). */
export function caseRows(dir) {
  const rows = [];
  if (!existsSync(dir)) return rows;
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const doc = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    for (const c of Array.isArray(doc) ? doc : doc.cases) {
      const candidate = {
        candidate_id: `KDC-${String(rows.length).padStart(16, '0')}`,
        target: 'spec',
        ...c.candidate,
      };
      const [matches] = matchCandidates([candidate], (c.corpus ?? []).map(entry), { seeds: c.seeds ?? [] });
      const expected = {
        disposition: c.expect.disposition,
        canonical_id: c.expect.canonical_id ?? null,
        acceptable: [],
      };
      rows.push({ set: 'cases-v0', case: { id: `${file}:${c.id}`, expected }, candidate, matches });
    }
  }
  return rows;
}
