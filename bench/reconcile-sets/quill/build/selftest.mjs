#!/usr/bin/env node
// End-to-end self-test of stage.mjs -> (fake receipt) -> extract.mjs -> score.mjs.
// Writes fake knowledge-reconciliation/1.0 receipts (nothing here reconciles anything):
//   1. "all unique"  : every candidate unique, canonical null
//   2. "oracle"      : the expected labels, canonical ids in alternative spellings
//   3. "partial"     : a quarter of the verdicts missing, a few unsafe ones planted
// and checks the numbers score.mjs reports. Exit 1 on the first failed check.

import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = process.execPath;
const run = (script, args, opts = {}) => spawnSync(node, [join(ROOT, script), ...args], { encoding: 'utf8', ...opts });
let failures = 0;
const check = (cond, msg) => { console.log(`${cond ? 'ok  ' : 'FAIL'} ${msg}`); if (!cond) failures++; };

const cases = readFileSync(join(ROOT, 'cases.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l));
const REVIEW = new Set(['semantic_duplicate', 'extends', 'potential_conflict', 'supersede_candidate']);
const dir = mkdtempSync(join(tmpdir(), 'holdout-reconcile-'));
try {
  // stage
  let r = run('stage.mjs', [dir]);
  check(r.status === 0, `stage.mjs exits 0 (${(r.stderr || '').trim().slice(0, 200)})`);
  const ids = JSON.parse(readFileSync(join(dir, 'ids.json'), 'utf8'));
  check(Object.keys(ids).length === cases.length, 'ids.json maps every case');
  const runDir = join(dir, '.workflow/sessions/20261201-quill/runs/20261201-001-quill');
  const delta = JSON.parse(readFileSync(join(runDir, 'knowledge-delta.json'), 'utf8'));
  check(delta.schema_version === 'run-knowledge-delta/1.0' && delta.candidates.length === cases.length, 'knowledge-delta.json holds one candidate per case');
  const keys = ['candidate_id', 'target', 'action', 'title', 'content', 'category', 'source_kind', 'evidence_refs', 'occurrences',
    'first_recorded_at', 'last_recorded_at', 'status', 'promoted_id', 'promotion_receipt'];
  check(delta.candidates.every(c => JSON.stringify(Object.keys(c)) === JSON.stringify(keys)), 'candidate objects carry exactly the reference field set');
  check(JSON.stringify(Object.keys(delta)) === JSON.stringify(['schema_version', 'session_id', 'run_id', 'revision', 'created_at', 'updated_at', 'inputs', 'candidates']), 'ledger carries exactly the reference field set');
  const norm = (s) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  const c0 = cases[0];
  check(ids[c0.id] === 'KDC-' + createHash('sha256').update(`${c0.target}\0${norm(c0.content)}`).digest('hex').slice(0, 16), 'candidate id = KDC- + sha256(target NUL normalised content)[:16]');
  check(JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8')).status === 'sealed', 'run is sealed');

  // restaging without --force is refused; with --force it works
  r = run('stage.mjs', [dir]);
  check(r.status === 1 && /--force/.test(r.stderr), 'restaging without --force is refused');
  r = run('stage.mjs', [dir, '--force']);
  check(r.status === 0, 'restaging with --force succeeds');
  // an empty seed spec file (as maestro-flow creates on read) does not block restaging
  writeFileSync(join(dir, '.workflow/specs/quality-rules.md'), '---\ntitle: "Quality Rules"\nreadMode: required\npriority: medium\ncategory: review\nkeywords:\n  - quality\n---\n\n# Quality Rules\n\n## Entries\n\n');
  r = run('stage.mjs', [dir, '--force']);
  check(r.status === 0, 'an empty seed spec file does not block restaging');
  // a foreign spec file with entries is refused even with --force
  const foreignDir = mkdtempSync(join(tmpdir(), 'holdout-foreign-'));
  execFileSync('mkdir', ['-p', join(foreignDir, '.workflow/specs')]);
  writeFileSync(join(foreignDir, '.workflow/specs/quality-rules.md'), '# mine\n\n### Use tabs\n\nIndent with tabs.\n');
  r = run('stage.mjs', [foreignDir, '--force']);
  check(r.status === 1 && /quality-rules\.md/.test(r.stderr), 'a project with foreign spec files is refused and the file is named');
  rmSync(foreignDir, { recursive: true, force: true });

  const receiptPath = join(runDir, 'knowledge-reconciliation.json');
  const writeReceipt = (verdicts) => {
    const elig = (d) => (d === 'exact_duplicate' ? 'suppressed' : d === 'unique' || d === 'related' ? 'eligible' : 'review_required');
    const list = verdicts.map(([cid, disposition, canonical]) => ({ candidate_id: cid, disposition, promotion_eligibility: elig(disposition), canonical_id: canonical, matches: [], resolution: null }));
    const h = (s) => createHash('sha256').update(s).digest('hex');
    writeFileSync(receiptPath, JSON.stringify({
      schema_version: 'knowledge-reconciliation/1.0', session_id: '20261201-quill', run_id: '20261201-001-quill',
      candidate_snapshot_hash: h('snap'), corpus_fingerprint: h('corpus'), matcher_revision: 'semantic-delta/1.0', generated_at: '2026-12-01T10:00:00.000Z',
      retrieval: { mode: 'lexical-kg', embedding_used: false, candidate_limit: 28, identity_documents: 0, semantic_documents: 0, relation_documents: 0 },
      counts: { candidates: list.length, unique: 0, duplicates: 0, related: 0, conflicts: 0, review_required: 0, suppressed: 0 },
      candidates: list,
    }, null, 2));
  };
  const score = (file) => {
    const s = run('score.mjs', [file]);
    if (s.status !== 0) { console.error(s.stderr); return null; }
    const lines = s.stdout.trim().split('\n');
    return JSON.parse(lines[lines.length - 1]);
  };

  // 1. all unique
  writeReceipt(cases.map(c => [ids[c.id], 'unique', null]));
  r = run('extract.mjs', [dir]);
  check(r.status === 0, 'extract.mjs exits 0');
  const preds = readFileSync(join(dir, 'predictions.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l));
  check(preds.length === cases.length && preds.every(p => p.disposition === 'unique' && p.canonical_id === null), 'extract writes one prediction per case');
  let s = score(join(dir, 'predictions.jsonl'));
  const nUnique = cases.filter(c => c.expected.disposition === 'unique').length;
  const nReview = cases.filter(c => REVIEW.has(c.expected.disposition)).length;
  check(s && s.missing === 0 && Math.abs(s.accuracy_strict - nUnique / cases.length) < 1e-4, `all-unique: strict accuracy = ${nUnique}/${cases.length}`);
  check(s && s.safety_silent_admission_rate === 1 && s.safety_n === nReview, 'all-unique: every review-required case is a silent admission');
  check(s && s.canonical_accuracy === 0, 'all-unique: canonical accuracy 0');
  check(s && s.per_disposition.unique.recall === 1 && s.per_disposition.unique.precision === Math.round(10000 * nUnique / cases.length) / 10000, 'all-unique: unique recall 1, precision = base rate');

  // 2. oracle, with canonical ids written in other accepted spellings
  const spell = (id, i) => {
    if (id === null) return null;
    if (id.startsWith('S-')) return i % 2 ? `spec:${id}` : id;
    const rest = id.replace(/^knowhow-/, '');
    return [id, `knowhow:${rest}`, rest][i % 3];
  };
  writeReceipt(cases.map((c, i) => [ids[c.id], c.expected.disposition, spell(c.expected.canonical_id, i)]));
  run('extract.mjs', [dir, '--out', join(dir, 'oracle.jsonl')]);
  s = score(join(dir, 'oracle.jsonl'));
  check(s && s.accuracy_strict === 1 && s.macro_f1_strict === 1 && s.macro_f1_lenient === 1, 'oracle: accuracy and macro-F1 are 1');
  check(s && s.canonical_accuracy === 1, 'oracle: canonical accuracy 1 across id spellings');
  check(s && s.safety_silent_admission_rate === 0 && s.false_suppression_rate === 0 && s.over_review_rate === 0, 'oracle: no safety errors');

  // 3. partial + planted unsafe verdicts
  const plant = cases.filter(c => REVIEW.has(c.expected.disposition)).slice(0, 5).map(c => c.id);
  const verdicts = [];
  cases.forEach((c, i) => {
    if (i % 4 === 3 && !plant.includes(c.id)) return; // drop a quarter
    verdicts.push([ids[c.id], plant.includes(c.id) ? 'related' : c.expected.disposition, c.expected.canonical_id]);
  });
  writeReceipt(verdicts);
  r = run('extract.mjs', [dir, '--out', join(dir, 'partial.jsonl')]);
  check(/have no verdict/.test(r.stderr), 'extract warns about cases without a verdict');
  s = score(join(dir, 'partial.jsonl'));
  const predictedReview = cases.filter((c, i) => REVIEW.has(c.expected.disposition) && (i % 4 !== 3 || plant.includes(c.id))).length;
  check(s && s.missing === cases.length - verdicts.length, `partial: ${cases.length - verdicts.length} reported missing`);
  check(s && s.safety_silent_admissions === 5 && s.safety_n === predictedReview, 'partial: the 5 planted silent admissions are counted');

  // bad input is reported with file and line
  writeFileSync(join(dir, 'bad.jsonl'), '{"id":"c001","disposition":"unique","canonical_id":null}\n{"id":"c002","disposition":"duplicate"}\n');
  r = run('score.mjs', [join(dir, 'bad.jsonl')]);
  check(r.status === 1 && /bad\.jsonl:2: unknown disposition/.test(r.stderr), 'score rejects an unknown disposition with file:line');
  writeFileSync(receiptPath, '{not json');
  r = run('extract.mjs', [dir]);
  check(r.status === 1 && /knowledge-reconciliation\.json is not valid JSON/.test(r.stderr), 'extract names a corrupt receipt');
} finally {
  if (process.argv.includes('--keep')) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
if (failures) { console.error(`${failures} check(s) failed`); process.exit(1); }
console.log('all checks passed');
