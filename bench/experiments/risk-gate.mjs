// Experiment (issue 12, session 6), not part of the bench run: does a learned risk score over the
// matcher's own outputs buy more safety per over-reviewed case than the fitted threshold policy?
// A logistic model over features of each candidate's top three matches (scores, relation, slot and
// language evidence, the policy's verdict) may only ADD review to the policy's eligible verdicts;
// its threshold is the lowest that keeps every training set's over-review within the target.
// Scored honestly: the policy is refitted and the model retrained without the held set
// (leave-one-set-out) or fold (5-fold cross-validation); the synthetic planted pairs and the older
// per-case sets take part in training and in the over-review constraint.
//   node bench/experiments/risk-gate.mjs [over-review target, default 0.2] [L2, default 0.01]
// Findings are recorded in bench/results/reconcile-ceiling.md.
import { join } from 'node:path';
import { verdictFor } from '../../packages/reconcile/dist/index.js';
import { fitPolicy } from '../lib/fit-policy.mjs';
import { caseRows, findSets, folds, measure, REVIEW_NEEDED, setRows } from '../lib/labelled-sets.mjs';
import { plantedPairs } from '../lib/planted.mjs';

const bench = join(import.meta.dirname, '..');
// The rows of the quality bench: every labelled set, the per-case sets and the planted pairs.
const rows = [
  ...findSets(join(bench, 'reconcile-sets')).flatMap(setRows),
  ...caseRows(join(bench, 'reconcile-cases')),
  ...plantedPairs({ rowsOnly: true }),
];

const RELS = [
  'exact_duplicate',
  'semantic_duplicate',
  'extends',
  'related',
  'potential_conflict',
  'supersede_candidate',
];
const cjk = (s) => {
  const m = s.match(/[\u4e00-\u9fff]/g);
  return m ? m.length / Math.max(1, s.replace(/\s/g, '').length) : 0;
};
const num = (e, re) => {
  for (const x of e) {
    const m = re.exec(x);
    if (m) return Number(m[1]);
  }
  return 0;
};
const has = (e, re) => (e.some((x) => re.test(x)) ? 1 : 0);
function feats(r, v) {
  const ms = [...r.matches].sort((a, b) => b.scores.composite - a.scores.composite);
  const f = [];
  const c = r.candidate;
  f.push(c.action === 'contest' ? 1 : 0, c.action === 'supersede' ? 1 : 0, c.action === 'reaffirm' ? 1 : 0);
  const zc = cjk(`${c.title} ${c.content}`);
  f.push(zc > 0.3 ? 1 : 0);
  f.push(Math.log1p(c.content.length) / 8);
  f.push(v.promotion_eligibility === 'eligible' ? 0 : 1);
  for (let k = 0; k < 3; k++) {
    const m = ms[k];
    if (!m) {
      for (let z = 0; z < 14 + RELS.length; z++) f.push(0);
      continue;
    }
    const s = m.scores;
    f.push(1, s.composite, s.lexical, s.semantic, s.title, s.stance, s.relation, m.novelty);
    for (const rel of RELS) f.push(m.relation === rel ? 1 : 0);
    const e = m.evidence;
    f.push(
      num(e, /^distinctive coverage ([\d.]+)/),
      num(e, /^distinctive shared weight ([\d.]+)/) / 5,
      has(e, /different languages/),
      has(e, /same subject, differs|opposite normative|different values|different choice|different approver/),
      has(e, /weak topical/),
      has(e, /different knowledge store/),
    );
  }
  f.push(
    ms.filter((m) => m.scores.composite > 0.1).length / 5,
    ms.filter((m) => m.relation === 'potential_conflict').length / 3,
  );
  f.push(ms.reduce((x, m) => Math.max(x, m.scores.stance), 0));
  return f;
}

const overTarget = Number(process.argv[2] ?? 0.2);
const L2 = Number(process.argv[3] ?? 0.01);
const y = rows.map((r) => (REVIEW_NEEDED.has(r.case.expected.disposition) ? 1 : 0));
const verdictsUnder = (policy) =>
  rows.map((r) =>
    verdictFor(r.candidate, r.candidate.action ?? 'propose', r.matches, '1970-01-01T00:00:00.000Z', policy),
  );
function train(X, idx, l2 = L2, iters = 500, lr = 0.5) {
  const D = X[0].length;
  const w = new Float64Array(D + 1);
  for (let it = 0; it < iters; it++) {
    const g = new Float64Array(D + 1);
    for (const i of idx) {
      let z = w[D];
      const x = X[i];
      for (let d = 0; d < D; d++) z += w[d] * x[d];
      const err = 1 / (1 + Math.exp(-z)) - y[i];
      for (let d = 0; d < D; d++) g[d] += err * x[d];
      g[D] += err;
    }
    for (let d = 0; d <= D; d++) w[d] -= lr * (g[d] / idx.length + (d < D ? l2 * w[d] : 0));
  }
  return w;
}
const prob = (X, w, i) => {
  const D = X[0].length;
  let z = w[D];
  for (let d = 0; d < D; d++) z += w[d] * X[i][d];
  return 1 / (1 + Math.exp(-z));
};
const gated = (V, X, w, t, i) =>
  V[i].promotion_eligibility === 'eligible' && prob(X, w, i) >= t
    ? { ...V[i], promotion_eligibility: 'review_required' }
    : V[i];
function pickT(V, X, w, idx) {
  const sets = [...new Set(idx.map((i) => rows[i].set))];
  let best = 1.01;
  for (let t = 0.98; t >= 0.05; t -= 0.01) {
    const ok = sets.every(
      (s) =>
        measure(
          idx.filter((i) => rows[i].set === s).map((i) => ({ case: rows[i].case, verdict: gated(V, X, w, t, i) })),
        ).over_review <= overTarget,
    );
    if (ok) best = t;
    else break;
  }
  return best;
}
const cache = new Map();
function fold(trainIdx, testIdx) {
  const policy = fitPolicy(trainIdx.map((i) => rows[i]));
  const key = JSON.stringify(policy);
  if (!cache.has(key)) {
    const V = verdictsUnder(policy);
    cache.set(key, { V, X: rows.map((r, i) => feats(r, V[i])) });
  }
  const { V, X } = cache.get(key);
  const w = train(X, trainIdx);
  const t = pickT(V, X, w, trainIdx);
  return testIdx.map((i) => ({ i, base: V[i], gate: gated(V, X, w, t, i), t }));
}
const LAB = ['calyx', 'harbor', 'lumen', 'quill', 'reconcile-v1'];
const all = rows.map((_, i) => i);
const report = (name, out) => {
  const tot = {};
  for (const s of [...LAB, 'synthetic']) {
    const o = out.filter((x) => rows[x.i].set === s);
    const b = measure(o.map((x) => ({ case: rows[x.i].case, verdict: x.base })));
    const g = measure(o.map((x) => ({ case: rows[x.i].case, verdict: x.gate })));
    console.log(
      `${name} ${s.padEnd(13)} base ${b.safety_n.join('/').padStart(7)} ${(100 * b.safety).toFixed(1).padStart(5)}% over ${(100 * b.over_review).toFixed(1).padStart(5)}% | gate ${g.safety_n.join('/').padStart(7)} ${(100 * g.safety).toFixed(1).padStart(5)}% over ${(100 * g.over_review).toFixed(1).padStart(5)}% (${g.over_review_n.join('/')})`,
    );
    if (s !== 'synthetic')
      for (const [k, m] of [
        ['b', b],
        ['g', g],
      ]) {
        tot[k] ??= [0, 0, 0, 0];
        tot[k][0] += m.safety_n[0];
        tot[k][1] += m.safety_n[1];
        tot[k][2] += m.over_review_n[0];
        tot[k][3] += m.over_review_n[1];
      }
  }
  const p = (a) => `${((100 * a[0]) / a[1]).toFixed(1)}% (${a[0]}/${a[1]}) over ${((100 * a[2]) / a[3]).toFixed(1)}%`;
  console.log(`${name} POOLED base ${p(tot.b)} | gate ${p(tot.g)}`);
};
// LOSO
let loso = [];
for (const s of LAB)
  loso = loso.concat(
    fold(
      all.filter((i) => rows[i].set !== s),
      all.filter((i) => rows[i].set === s),
    ),
  );
report('LOSO', loso);
// k-fold
const K = 5;
const foldOf = new Map();
for (const s of [...new Set(rows.map((r) => r.set))])
  folds(
    rows.filter((r) => r.set === s).map((r) => r.case),
    K,
  ).forEach((ids, f) => {
    for (const id of ids) foldOf.set(`${s}\0${id}`, f);
  });
const fk = (i) => foldOf.get(`${rows[i].set}\0${rows[i].case.id}`);
let cv = [];
for (let f = 0; f < K; f++)
  cv = cv.concat(
    fold(
      all.filter((i) => fk(i) !== f),
      all.filter((i) => fk(i) === f),
    ),
  );
report('CV', cv);
