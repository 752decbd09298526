// Verdict quality of the reconciliation matcher on labelled candidate-vs-corpus cases.
//   node bench/reconcile-quality.mjs [--cases <dir>] [--json] [--out <file.md>] [--failures]
// Each case file is JSON `{ cases: [...] }` (see bench/reconcile-cases/README.md). Prints per-disposition
// precision/recall/F1, macro-F1, canonical-target accuracy and the safety error; writes the table to
// bench/results/reconcile-quality.md when run on the default case directory (or to --out).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { contentHash } from '../packages/core/dist/index.js';
import { MATCHER_REVISION, reconcile } from '../packages/reconcile/dist/index.js';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    cases: { type: 'string' },
    json: { type: 'boolean' },
    out: { type: 'string' },
    failures: { type: 'boolean' },
  },
});
const casesDir = resolve(values.cases ?? join(root, 'bench/reconcile-cases'));
const DISPOSITIONS = [
  'unique',
  'exact_duplicate',
  'semantic_duplicate',
  'extends',
  'related',
  'potential_conflict',
  'supersede_candidate',
];
const DEFAULT_ELIGIBILITY = {
  unique: 'eligible',
  related: 'eligible',
  exact_duplicate: 'suppressed',
  semantic_duplicate: 'review_required',
  extends: 'review_required',
  potential_conflict: 'review_required',
  supersede_candidate: 'review_required',
};

function loadCases(dir) {
  const out = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const doc = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    for (const c of Array.isArray(doc) ? doc : doc.cases) out.push({ ...c, file });
  }
  return out;
}

function entry(e, i) {
  return {
    id: e.id,
    store: e.store ?? 'spec',
    title: e.title ?? '',
    content: e.content,
    category: e.category ?? null,
    keywords: [],
    description: null,
    date: null,
    status: e.status ?? 'active',
    confidence: null,
    supersedes: e.supersedes ?? [],
    supersededBy: e.supersededBy ?? null,
    ref: null,
    source: null,
    file: e.file ?? `specs/case-${i}.md`,
    line: e.store === 'knowhow' ? null : (e.line ?? i + 1),
    contentHash: contentHash(e.content),
    legacy: false,
    hasSid: true,
    type: null,
    conflict: null,
  };
}

const cases = loadCases(casesDir);
const rows = [];
const started = performance.now();
for (const c of cases) {
  const corpus = (c.corpus ?? []).map(entry);
  const candidate = { candidate_id: `KDC-${String(rows.length).padStart(16, '0')}`, target: 'spec', ...c.candidate };
  const [v] = reconcile([candidate], corpus, { seeds: c.seeds ?? [] });
  const expected = c.expect;
  const expElig = expected.eligibility ?? DEFAULT_ELIGIBILITY[expected.disposition];
  rows.push({ c, v, expected, expElig });
}
const elapsedMs = performance.now() - started;

const per = Object.fromEntries(DISPOSITIONS.map((d) => [d, { tp: 0, fp: 0, fn: 0, support: 0 }]));
for (const { v, expected } of rows) {
  per[expected.disposition].support++;
  if (v.disposition === expected.disposition) per[v.disposition].tp++;
  else {
    per[v.disposition].fp++;
    per[expected.disposition].fn++;
  }
}
const f = (x) => (Number.isFinite(x) ? x.toFixed(3) : '–');
const table = DISPOSITIONS.map((d) => {
  const { tp, fp, support } = per[d];
  const precision = tp + fp ? tp / (tp + fp) : Number.NaN;
  const recall = support ? tp / support : Number.NaN;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { d, precision, recall, f1, support };
});
const present = table.filter((t) => t.support > 0);
const macroF1 = present.reduce((s, t) => s + t.f1, 0) / present.length;
const withTarget = rows.filter((r) => r.expected.canonical_id);
const targetOk = withTarget.filter((r) => r.v.canonical_id === r.expected.canonical_id).length;
const needsReview = rows.filter((r) => r.expElig !== 'eligible');
const unsafe = needsReview.filter((r) => r.v.promotion_eligibility === 'eligible');
const eligOk = rows.filter((r) => r.v.promotion_eligibility === r.expElig).length;
const withReaffirm = rows.filter((r) => 'reaffirms' in r.expected);
const reaffirmOk = withReaffirm.filter((r) => r.v.reaffirms === r.expected.reaffirms).length;
const exact = table.find((t) => t.d === 'exact_duplicate');
const accuracy = rows.filter((r) => r.v.disposition === r.expected.disposition).length / rows.length;
const failures = rows
  .filter((r) => r.v.disposition !== r.expected.disposition || r.v.promotion_eligibility !== r.expElig)
  .map((r) => ({
    id: r.c.id,
    expected: `${r.expected.disposition}/${r.expElig}`,
    got: `${r.v.disposition}/${r.v.promotion_eligibility}`,
    evidence: r.v.matches[0]?.evidence.join('; ') ?? '',
  }));

const summary = {
  matcher_revision: MATCHER_REVISION,
  cases: rows.length,
  languages: [...new Set(rows.map((r) => r.c.lang))].sort(),
  accuracy,
  macro_f1: macroF1,
  exact_duplicate_recall: exact.recall,
  canonical_target_accuracy: withTarget.length ? targetOk / withTarget.length : Number.NaN,
  safety_error: needsReview.length ? unsafe.length / needsReview.length : 0,
  eligibility_accuracy: eligOk / rows.length,
  reaffirm_accuracy: withReaffirm.length ? reaffirmOk / withReaffirm.length : Number.NaN,
  per_disposition: table,
  unsafe: unsafe.map((r) => r.c.id),
  failures,
  ms_per_case: elapsedMs / rows.length,
};

const md = [
  `## Reconciliation verdict quality (\`${MATCHER_REVISION}\`)`,
  '',
  `${rows.length} labelled cases (${summary.languages.join(', ')}) from \`${casesDir.replace(`${root}/`, '')}\`.`,
  '',
  '| disposition | precision | recall | F1 | support |',
  '|---|---|---|---|---|',
  ...table.map((t) => `| ${t.d} | ${f(t.precision)} | ${f(t.recall)} | ${f(t.f1)} | ${t.support} |`),
  '',
  '| metric | value | target |',
  '|---|---|---|',
  `| macro-F1 | ${f(macroF1)} | ≥ 0.8 |`,
  `| exact-duplicate recall | ${f(exact.recall)} | 1.0 |`,
  `| safety error (needs review or suppression, came out eligible) | ${f(summary.safety_error)} (${unsafe.length}/${needsReview.length}) | ≤ 0.02 |`,
  `| canonical-target accuracy | ${f(summary.canonical_target_accuracy)} (${targetOk}/${withTarget.length}) | |`,
  `| disposition accuracy | ${f(accuracy)} | |`,
  `| eligibility accuracy | ${f(summary.eligibility_accuracy)} | |`,
  `| reaffirm target accuracy | ${f(summary.reaffirm_accuracy)} | |`,
  '',
].join('\n');

if (values.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
else {
  process.stdout.write(`${md}\n`);
  if (values.failures || failures.length <= 20) {
    for (const x of failures)
      process.stdout.write(`  ✗ ${x.id}: expected ${x.expected}, got ${x.got}  [${x.evidence}]\n`);
  } else process.stdout.write(`  ${failures.length} cases differ (run with --failures to list them)\n`);
}
const out = values.out ?? (values.cases ? null : join(root, 'bench/results/reconcile-quality.md'));
// Honest context for the dev-set figures: each held-out file was scored once, before any rule was
// changed because of it (then it joined the dev set). Expect unseen cases to land nearer these.
const HELD_OUT = [
  '',
  'Held-out checks, measured when each file was first scored, before it informed any change:',
  '`holdout-a` (44 cases) macro-F1 0.871, safety error 0.097; `holdout-b` (45) macro-F1 0.732, safety 0.219;',
  '`holdout-c` (34) macro-F1 0.787, safety 0.120; `holdout-d` (23) disposition accuracy 0.565, safety 0.118.',
  'After the general fixes they prompted (no rule names their texts) all four score safety error 0.000.',
].join('\n');
if (out) {
  const wrong = failures.length ? failures.map((x) => `\`${x.id}\` (${x.expected} → ${x.got})`).join(', ') : 'none';
  writeFileSync(out, `${md}\nMisclassified: ${wrong}.\n${values.cases ? '' : `${HELD_OUT}\n`}`);
}
