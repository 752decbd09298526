#!/usr/bin/env node
// Stage the "lumen" reconciliation set into a project directory, in maestro-flow's on-disk format,
// so that any tool that reads `.workflow/` can reconcile it.
//
//   node stage.mjs <project-dir> [--force]
//
// Writes:
//   <dir>/.workflow/specs/*.md, <dir>/.workflow/knowhow/*.md        copies of corpus/.workflow/
//   <dir>/.workflow/sessions/20261201-lumen/session.json             session/1.0 (read by maestro-flow as legacy 1.x)
//     gates.json, artifacts.json, evidence.json                     empty registries the session refers to
//     runs/20261201-001-lumen/run.json                              command-run/1.0, status "sealed"
//     runs/20261201-001-lumen/knowledge-delta.json                  run-knowledge-delta/1.0, one pending candidate per case
//   <dir>/ids.json                                                  { "<case id>": "<candidate id>", ... }
//
// The project directory is created if missing. Existing spec or knowhow files that are not part of
// this corpus make the command fail, because they would change the corpus under test; empty seed spec
// files (no entries, as maestro-flow creates on read) are tolerated. Files from an earlier staging are
// only overwritten with --force. No dependencies; Node >= 18.

import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const CORPUS = join(HERE, 'corpus', '.workflow');
const CASES = join(HERE, 'cases.jsonl');
export const SESSION_ID = '20261201-lumen';
export const RUN_ID = '20261201-001-lumen';
const T0 = Date.parse('2026-12-01T09:00:00.000Z');
const iso = (ms) => new Date(ms).toISOString();

const USAGE = 'usage: node stage.mjs <project-dir> [--force]';

function die(msg) {
  console.error(`stage: ${msg}`);
  process.exit(1);
}

export function normalizedText(value) {
  return value.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function candidateId(target, content) {
  return 'KDC-' + createHash('sha256').update(`${target}\u0000${normalizedText(content)}`).digest('hex').slice(0, 16);
}

export function readCases(path = CASES) {
  let text;
  try { text = readFileSync(path, 'utf8'); } catch (e) { die(`cannot read ${path}: ${e.message}`); }
  const cases = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let c;
    try { c = JSON.parse(line); } catch (e) { die(`${path}:${i + 1}: invalid JSON (${e.message})`); }
    for (const f of ['id', 'target', 'action', 'title', 'content']) {
      if (typeof c[f] !== 'string' || !c[f].trim()) die(`${path}:${i + 1}: field "${f}" must be a non-empty string`);
    }
    if (!['spec', 'knowhow'].includes(c.target)) die(`${path}:${i + 1}: target must be spec or knowhow`);
    if (!['propose', 'reaffirm', 'supersede', 'contest'].includes(c.action)) die(`${path}:${i + 1}: unknown action "${c.action}"`);
    cases.push(c);
  });
  return cases;
}

// True when a spec file has any entry: a <spec-entry> block or a legacy "### " heading.
function holdsEntries(text) {
  return /<spec-entry[\s>]/.test(text) || /^### /m.test(text);
}

function listMd(dir) {
  return existsSync(dir) ? readdirSync(dir).filter(f => f.endsWith('.md') && statSync(join(dir, f)).isFile()) : [];
}

function main(argv) {
  const args = argv.filter(a => !a.startsWith('--'));
  const flags = new Set(argv.filter(a => a.startsWith('--')));
  for (const f of flags) if (f !== '--force') die(`unknown option ${f}\n${USAGE}`);
  if (args.length !== 1) die(USAGE);
  const force = flags.has('--force');
  const project = resolve(args[0]);
  if (existsSync(project) && !statSync(project).isDirectory()) die(`${project} is not a directory`);
  if (!existsSync(CORPUS)) die(`corpus not found at ${CORPUS}`);

  const wf = join(project, '.workflow');
  const plan = [];
  const conflicts = [];
  const foreign = [];
  for (const sub of ['specs', 'knowhow']) {
    const ours = new Set(listMd(join(CORPUS, sub)));
    for (const f of listMd(join(wf, sub))) {
      if (ours.has(f)) continue;
      // maestro-flow's read path creates empty seed spec files (e.g. quality-rules.md); they hold no entries.
      if (sub === 'specs' && !holdsEntries(readFileSync(join(wf, sub, f), 'utf8'))) continue;
      foreign.push(join('.workflow', sub, f));
    }
    for (const f of ours) {
      const dst = join(wf, sub, f);
      if (existsSync(dst) && readFileSync(dst, 'utf8') !== readFileSync(join(CORPUS, sub, f), 'utf8')) conflicts.push(join('.workflow', sub, f));
      plan.push([join(CORPUS, sub, f), dst]);
    }
  }
  if (foreign.length) {
    die(`${project} already has knowledge files that are not part of the lumen corpus:\n  ${foreign.join('\n  ')}\n` +
      'They would change the corpus under test. Stage into an empty directory instead.');
  }
  const sessionDir = join(wf, 'sessions', SESSION_ID);
  if (!force && (conflicts.length || existsSync(sessionDir))) {
    die(`${project} was staged before (${[...conflicts, existsSync(sessionDir) ? join('.workflow', 'sessions', SESSION_ID) : null].filter(Boolean).join(', ')} exist).\n` +
      'Rerun with --force to replace them (this discards any receipts a tool wrote into that session).');
  }

  const cases = readCases();
  const ids = {};
  const seen = new Map();
  const candidates = cases.map((c, i) => {
    const cid = candidateId(c.target, c.content);
    if (seen.has(cid)) die(`cases ${seen.get(cid)} and ${c.id} normalise to the same candidate id ${cid}`);
    seen.set(cid, c.id);
    if (ids[c.id]) die(`duplicate case id ${c.id}`);
    ids[c.id] = cid;
    const at = iso(T0 + (i + 1) * 1000);
    return {
      candidate_id: cid,
      target: c.target,
      action: c.action,
      title: c.title,
      content: c.content,
      category: c.category ?? null,
      source_kind: 'manual',
      evidence_refs: [`run:${RUN_ID}`],
      occurrences: 1,
      first_recorded_at: at,
      last_recorded_at: at,
      status: 'pending',
      promoted_id: null,
      promotion_receipt: null,
    };
  });
  const tLast = T0 + (cases.length + 1) * 1000;
  const tSeal = tLast + 60_000;

  // corpus
  for (const [src, dst] of plan) {
    mkdirSync(dirname(dst), { recursive: true });
    copyFileSync(src, dst);
  }

  // session (legacy session/1.0: maestro-flow reads it and normalises it to 1.3 in memory)
  rmSync(sessionDir, { recursive: true, force: true });
  const runDir = join(sessionDir, 'runs', RUN_ID);
  mkdirSync(runDir, { recursive: true });
  const writeJson = (p, v) => writeFileSync(p, JSON.stringify(v, null, 2) + '\n');

  writeJson(join(sessionDir, 'session.json'), {
    schema_version: 'session/1.0',
    session_id: SESSION_ID,
    intent: 'Lumen knowledge reconciliation evaluation',
    status: 'running',
    identity_revision: 1,
    activity_revision: 3,
    active_run_id: null,
    latest_completed_run_id: RUN_ID,
    boundary_contract: { in_scope: [], out_of_scope: [], constraints: [], definition_of_done: '' },
    orchestration: {
      engine: 'manual',
      quality_mode: 'standard',
      auto_mode: false,
      chain: [{ step_id: 's-1', command: 'lumen', status: 'sealed', run_id: RUN_ID, inserted_by: 'lumen-stage', decision_ref: null }],
      decision_points: [],
    },
    requests: [],
    lifecycle: { sealed_at: null, seal_summary: null, promoted_spec_ids: [], promoted_knowhow_ids: [], forked_from: null },
    refs: { gates: 'gates.json', artifacts: 'artifacts.json', evidence: 'evidence.json' },
  });
  writeJson(join(sessionDir, 'gates.json'), {
    schema_version: 'gates/1.0', revision: 0, gates: {},
    summary: { total: 0, passed: 0, blocked: 0, failed: 0, active_gate_ids: [], blocking_run_id: null },
  });
  writeJson(join(sessionDir, 'artifacts.json'), { schema_version: 'artifacts/1.0', revision: 0, artifacts: {}, aliases: {} });
  writeJson(join(sessionDir, 'evidence.json'), { schema_version: 'evidence/1.0', revision: 0, records: {} });

  const h = (s) => createHash('sha256').update(s).digest('hex');
  writeJson(join(runDir, 'run.json'), {
    schema_version: 'command-run/1.0',
    session_id: SESSION_ID,
    run_id: RUN_ID,
    sequence: 1,
    parent_run_id: null,
    command: { name: 'lumen', version: '1.0.0', source_path: '', content_hash: h('lumen-command'), resolved_prompt_hash: h('lumen-prompt') },
    status: 'sealed',
    input: { args: [], consumes: [], context_identity_revision: 1 },
    gate_ids: [],
    output: { produces: [], primary_artifact_id: null, verdict: 'ready' },
    handoff: null,
    started_at: iso(T0),
    completed_at: iso(tSeal - 1000),
    sealed_at: iso(tSeal),
  });
  writeJson(join(runDir, 'knowledge-delta.json'), {
    schema_version: 'run-knowledge-delta/1.0',
    session_id: SESSION_ID,
    run_id: RUN_ID,
    revision: candidates.length,
    created_at: iso(T0 + 1000),
    updated_at: iso(tLast - 1000),
    inputs: [],
    candidates,
  });
  writeJson(join(project, 'ids.json'), ids);

  const specs = plan.filter(([s]) => s.includes(`${join('.workflow', 'specs')}`)).length;
  console.log(`Staged ${candidates.length} candidates and ${specs} spec files + ${plan.length - specs} knowhow files into ${project}`);
  console.log(`  session  .workflow/sessions/${SESSION_ID}  (run ${RUN_ID}, sealed)`);
  console.log(`  ids      ids.json`);
  console.log('Next: reconcile with the tool under test, e.g. maestro-flow:');
  console.log(`  maestro knowledge review ${SESSION_ID} --refresh --json --workflow-root ${project}`);
  console.log(`then: node ${join(HERE, 'extract.mjs')} ${project} && node ${join(HERE, 'score.mjs')} ${join(project, 'predictions.jsonl')}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
