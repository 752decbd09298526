// Verdict quality of the reconciliation matcher on labelled candidate-vs-corpus cases.
//   node bench/reconcile-quality.mjs [--cases <dir>] [--json] [--out <file.md>] [--failures]
// Each case file is JSON `{ cases: [...] }` (see bench/reconcile-cases/README.md). Prints per-disposition
// precision/recall/F1, macro-F1, canonical-target accuracy and the safety error, for all cases and per
// set (`heldout-*.json` / `heldout3-*.json` are held-out rounds 2 and 3, the rest the dev set); writes
// bench/results/reconcile-quality.{md,json} when run on the default case directory (or to --out).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { contentHash } from '../packages/core/dist/index.js';
import { MATCHER_REVISION, reconcile } from '../packages/reconcile/dist/index.js';
import { writeResults } from './lib/report.mjs';

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
const setOf = (file) =>
  file.startsWith('heldout3-') ? 'held-out round 3' : file.startsWith('heldout-') ? 'held-out round 2' : 'dev set';

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
  rows.push({ c, v, expected, expElig, set: setOf(c.file) });
}
const elapsedMs = performance.now() - started;

function measure(rows) {
  const per = Object.fromEntries(DISPOSITIONS.map((d) => [d, { tp: 0, fp: 0, support: 0 }]));
  for (const { v, expected } of rows) {
    per[expected.disposition].support++;
    if (v.disposition === expected.disposition) per[v.disposition].tp++;
    else per[v.disposition].fp++;
  }
  const table = DISPOSITIONS.map((d) => {
    const { tp, fp, support } = per[d];
    const precision = tp + fp ? tp / (tp + fp) : Number.NaN;
    const recall = support ? tp / support : Number.NaN;
    const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
    return { d, precision, recall, f1, support };
  });
  const present = table.filter((t) => t.support > 0);
  const withTarget = rows.filter((r) => r.expected.canonical_id);
  const targetOk = withTarget.filter((r) => r.v.canonical_id === r.expected.canonical_id).length;
  const needsReview = rows.filter((r) => r.expElig !== 'eligible');
  const unsafe = needsReview.filter((r) => r.v.promotion_eligibility === 'eligible');
  const withReaffirm = rows.filter((r) => 'reaffirms' in r.expected);
  return {
    cases: rows.length,
    languages: [...new Set(rows.map((r) => r.c.lang))].sort(),
    accuracy: rows.filter((r) => r.v.disposition === r.expected.disposition).length / rows.length,
    macro_f1: present.reduce((s, t) => s + t.f1, 0) / present.length,
    exact_duplicate_recall: table.find((t) => t.d === 'exact_duplicate').recall,
    canonical_target_accuracy: withTarget.length ? targetOk / withTarget.length : Number.NaN,
    canonical_target: [targetOk, withTarget.length],
    safety_error: needsReview.length ? unsafe.length / needsReview.length : 0,
    safety: [unsafe.length, needsReview.length],
    eligibility_accuracy: rows.filter((r) => r.v.promotion_eligibility === r.expElig).length / rows.length,
    reaffirm_accuracy: withReaffirm.length
      ? withReaffirm.filter((r) => r.v.reaffirms === r.expected.reaffirms).length / withReaffirm.length
      : Number.NaN,
    per_disposition: table,
    unsafe: unsafe.map((r) => r.c.id),
  };
}

const f = (x) => (Number.isFinite(x) ? x.toFixed(3) : '–');
function section(title, m) {
  return [
    `### ${title}: ${m.cases} cases (${m.languages.join(', ')})`,
    '',
    '| disposition | precision | recall | F1 | support |',
    '|---|---|---|---|---|',
    ...m.per_disposition.map((t) => `| ${t.d} | ${f(t.precision)} | ${f(t.recall)} | ${f(t.f1)} | ${t.support} |`),
    '',
    '| metric | value | target |',
    '|---|---|---|',
    `| macro-F1 | ${f(m.macro_f1)} | ≥ 0.8 |`,
    `| exact-duplicate recall | ${f(m.exact_duplicate_recall)} | 1.0 |`,
    `| safety error (needs review or suppression, came out eligible) | ${f(m.safety_error)} (${m.safety[0]}/${m.safety[1]}) | ≤ 0.02 |`,
    `| canonical-target accuracy | ${f(m.canonical_target_accuracy)} (${m.canonical_target[0]}/${m.canonical_target[1]}) | |`,
    `| disposition accuracy | ${f(m.accuracy)} | |`,
    `| eligibility accuracy | ${f(m.eligibility_accuracy)} | |`,
    `| reaffirm target accuracy | ${f(m.reaffirm_accuracy)} | |`,
    '',
  ];
}

const failures = rows
  .filter((r) => r.v.disposition !== r.expected.disposition || r.v.promotion_eligibility !== r.expElig)
  .map((r) => ({
    id: r.c.id,
    expected: `${r.expected.disposition}/${r.expElig}`,
    got: `${r.v.disposition}/${r.v.promotion_eligibility}`,
    evidence: r.v.matches[0]?.evidence.join('; ') ?? '',
  }));
const all = measure(rows);
const sets = [...new Set(rows.map((r) => r.set))].sort();
const perSet = Object.fromEntries(sets.map((s) => [s, measure(rows.filter((r) => r.set === s))]));
const summary = {
  matcher_revision: MATCHER_REVISION,
  ...all,
  sets: perSet,
  failures,
  ms_per_case: elapsedMs / rows.length,
};

const md = [
  `## Reconciliation verdict quality (\`${MATCHER_REVISION}\`)`,
  '',
  `${rows.length} labelled cases from \`${casesDir.replace(`${root}/`, '')}\`.`,
  '',
  ...section('All cases', all),
  ...(sets.length > 1 ? sets.flatMap((s) => section(s, perSet[s])) : []),
].join('\n');

if (values.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
else {
  process.stdout.write(`${md}\n`);
  if (values.failures || failures.length <= 20) {
    for (const x of failures)
      process.stdout.write(`  ✗ ${x.id}: expected ${x.expected}, got ${x.got}  [${x.evidence}]\n`);
  } else process.stdout.write(`  ${failures.length} cases differ (run with --failures to list them)\n`);
}
// Honest context for the figures: each held-out batch was scored once, before any rule was changed
// because of it. Expect unseen cases to land nearer these first looks than the tuned figures above.
const HELD_OUT = readFileSync(join(import.meta.dirname, 'reconcile-cases/HELD-OUT.md'), 'utf8');
const wrong = failures.length ? failures.map((x) => `\`${x.id}\` (${x.expected} → ${x.got})`).join(', ') : 'none';
const doc = `${md}\nMisclassified: ${wrong}.\n${values.cases ? '' : `\n${HELD_OUT.trim()}\n`}`;
if (values.out) writeFileSync(values.out, doc);
else if (!values.cases) {
  const metric = (name, value, unit, better) => ({ name, value, unit, better });
  const ho = perSet['held-out round 2'];
  writeResults('reconcile-quality', doc, [
    metric('macro-F1 (all)', all.macro_f1, '', 'higher'),
    metric('safety error (all)', all.safety_error, '', 'lower'),
    metric('exact-duplicate recall (all)', all.exact_duplicate_recall, '', 'higher'),
    ...(ho
      ? [
          metric('macro-F1 (held-out 2)', ho.macro_f1, '', 'higher'),
          metric('safety error (held-out 2)', ho.safety_error, '', 'lower'),
        ]
      : []),
  ]);
}
