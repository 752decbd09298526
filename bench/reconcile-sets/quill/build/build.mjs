#!/usr/bin/env node
// Builds the Quill reconciliation set (same design and checks as reconcile-v1) from the hand-written sources in this folder:
//   corpus-specs.mjs, corpus-knowhow.mjs  ->  ../corpus/.workflow/{specs,knowhow}/*.md
//   cases-a.mjs, cases-b.mjs              ->  ../cases.jsonl
// and refreshes the count tables in ../README.md (between the counts markers).
// Every structural property of the labels that can be checked mechanically is checked here;
// the build fails (exit 1) and names the case if one does not hold.
//
// Usage: node build/build.mjs [--check]   (--check: verify that the outputs on disk are current)

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SPEC_FILES, SPEC_ENTRIES } from './corpus-specs.mjs';
import { KNOWHOW } from './corpus-knowhow.mjs';
import { CASES_A } from './cases-a.mjs';
import { CASES_B } from './cases-b.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const CHECK = process.argv.includes('--check');
// Size floors of the finished set (the reconcile-v1 design): >= 20 cases per disposition, 180-220 cases in all.
const MIN_PER_DISPOSITION = 20;
const MIN_CASES = 180;
const MAX_CASES = 220;

const DISPOSITIONS = ['unique', 'exact_duplicate', 'semantic_duplicate', 'extends', 'related', 'potential_conflict', 'supersede_candidate'];
const REVIEW = new Set(['semantic_duplicate', 'extends', 'potential_conflict', 'supersede_candidate']);
const ELIGIBLE = new Set(['unique', 'related']);
const SPEC_CATEGORIES = new Set(['coding', 'arch', 'debug', 'test', 'review', 'learning', 'ui']);
const KNOWHOW_PREFIX = { session: 'KNW', tip: 'TIP', template: 'TPL', recipe: 'RCP', reference: 'REF', decision: 'DCS', asset: 'AST', blueprint: 'BLP', document: 'DOC' };

const errors = [];
const fail = (msg) => errors.push(msg);

// ── helpers ────────────────────────────────────────────────────────────────
const sha256 = (s) => createHash('sha256').update(s).digest('hex');
// Normaliser used for candidate ids and for the "exact duplicate" definition of this set.
export const norm = (s) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
// maestro-flow's reconciler normaliser additionally drops quote characters.
const normRef = (s) => s.normalize('NFKC').toLowerCase().replace(/[“”‘’"'`]/g, '').replace(/\s+/g, ' ').trim();
const slugify = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
const escAttr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const hasHan = (s) => /[\u3400-\u4dbf\u4e00-\u9fff]/.test(s);
const candidateId = (target, content) => 'KDC-' + sha256(`${target}\0${norm(content)}`).slice(0, 16);

function sidFor(key, date) {
  const n = parseInt(sha256('sid:' + key).slice(0, 12), 16);
  const suffix = n.toString(36).slice(-4).padStart(4, '0');
  return `S-${date.replace(/-/g, '')}-${suffix}`;
}

// ── spec corpus ──────────────────────────────────────────────────────────
const entries = new Map(); // key -> entry
for (const [cat, list] of Object.entries(SPEC_ENTRIES)) {
  if (!SPEC_FILES[cat]) fail(`unknown spec category ${cat}`);
  for (const [key, date, keywords, title, body, opts = {}] of list) {
    if (entries.has(key)) fail(`duplicate entry key ${key}`);
    if (!/^2026-\d\d-\d\d$/.test(date)) fail(`${key}: bad date ${date}`);
    if (/["&<>]/.test(title)) fail(`${key}: title contains a character the maestro-flow parser would not round-trip`);
    const sentences = body.split(/(?<=[.。;；!?])\s*/).filter(s => s.trim()).length;
    if (sentences < 1 || body.length > 400) fail(`${key}: body length out of range`);
    entries.set(key, { key, store: 'spec', category: cat, date, keywords, title, body, opts,
      sid: sidFor(key, date), lang: hasHan(body) ? 'zh' : 'en', supersedes: [], supersededBy: null, status: 'active' });
  }
}
const sids = new Map();
for (const e of entries.values()) {
  if (sids.has(e.sid)) fail(`sid collision ${e.sid}: ${sids.get(e.sid)} and ${e.key}`);
  sids.set(e.sid, e.key);
}
for (const e of entries.values()) {
  if (e.opts.supersededBy) {
    const succ = entries.get(e.opts.supersededBy);
    if (!succ) { fail(`${e.key}: unknown successor ${e.opts.supersededBy}`); continue; }
    if (succ.date <= e.date) fail(`${e.key}: successor ${succ.key} is not newer`);
    e.status = 'deprecated';
    e.supersededBy = succ.key;
    succ.supersedes.push(e.key);
  }
}

// ── knowhow corpus ───────────────────────────────────────────────────────
const knowhow = new Map();
for (const k of KNOWHOW) {
  const prefix = KNOWHOW_PREFIX[k.type];
  if (!prefix) fail(`${k.key}: unknown knowhow type ${k.type}`);
  const ymd = k.created.slice(0, 10).replace(/-/g, '');
  const slug = slugify(k.title).slice(0, 40).replace(/-+$/, '');
  const stem = slug ? `${prefix}-${ymd}-${slug}` : `${prefix}-${ymd}-${k.created.slice(11, 13)}${k.created.slice(14, 16)}`;
  const id = 'knowhow-' + slugify(stem);
  if (knowhow.has(k.key) || entries.has(k.key)) fail(`duplicate key ${k.key}`);
  knowhow.set(k.key, { ...k, store: 'knowhow', stem, file: `${stem}.md`, id, lang: hasHan(k.body) ? 'zh' : 'en',
    status: k.supersededBy ? 'deprecated' : 'active', supersedes: [] });
}
for (const k of knowhow.values()) {
  if (k.supersededBy) {
    const succ = knowhow.get(k.supersededBy);
    if (!succ) fail(`${k.key}: unknown knowhow successor`);
    else succ.supersedes.push(k.key);
  }
}
for (const e of entries.values()) {
  if (e.opts.ref && !knowhow.has(e.opts.ref)) fail(`${e.key}: ref to unknown knowhow ${e.opts.ref}`);
}

const docOf = (key) => entries.get(key) ?? knowhow.get(key) ?? null;
const idOf = (doc) => (doc.store === 'spec' ? doc.sid : doc.id);

// ── render corpus files ──────────────────────────────────────────────────
function renderSpecFile(cat) {
  const f = SPEC_FILES[cat];
  const fm = f.frontmatter;
  const out = ['---', `title: "${fm.title}"`, `readMode: ${fm.readMode}`, `priority: ${fm.priority}`, `category: ${fm.category}`,
    'keywords:', ...fm.keywords.map(k => `  - ${k}`), '---', '', `# ${fm.title}`, ''];
  if (f.intro) out.push(f.intro, '');
  for (const s of f.sections) out.push(`## ${s}`, '');
  out.push('## Entries', '');
  const list = [...entries.values()].filter(e => e.category === cat).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  for (const e of list) {
    const attrs = [
      ['category', e.category], ['keywords', e.keywords], ['date', e.date], ['sid', e.sid], ['title', e.title],
      ['source', `main@${sha256('commit:' + e.date).slice(0, 7)}`],
    ];
    if (e.opts.ref) attrs.push(['ref', `knowhow/${knowhow.get(e.opts.ref).file}`]);
    if (e.supersedes.length) attrs.push(['supersedes', e.supersedes.map(k => entries.get(k).sid).join(',')]);
    if (e.status === 'deprecated') { attrs.push(['status', 'deprecated']); attrs.push(['superseded-by', entries.get(e.supersededBy).sid]); }
    out.push(`<spec-entry ${attrs.map(([k, v]) => `${k}="${escAttr(v)}"`).join(' ')}>`, '', `### ${e.title}`, '', e.body, '', '</spec-entry>', '');
  }
  return out.join('\n');
}

function yamlValue(v) {
  return /: |\n|["'#,{}\[\]]/.test(v) ? JSON.stringify(v) : v;
}
function renderKnowhow(k) {
  const out = ['---', `title: ${yamlValue(k.title)}`, `type: ${k.type}`, `category: ${k.category}`, `created: ${k.created}`,
    'keywords:', ...k.keywords.map(x => `  - ${x}`), 'tags:', `  - ${k.category}`];
  if (k.status === 'deprecated') {
    out.push('status: "deprecated"', `supersededBy: ${JSON.stringify(knowhow.get(k.supersededBy).id)}`);
  } else if (k.type === 'decision') {
    out.push(`status: ${k.status}`);
  }
  if (k.supersedes.length) out.push(`supersedes: ${JSON.stringify(k.supersedes.map(x => knowhow.get(x).id).sort())}`);
  out.push('---', '', k.body.replace(/\r\n/g, '\n').replace(/\n+$/, ''), '');
  return out.join('\n');
}
for (const k of knowhow.values()) {
  if (k.status !== 'deprecated' && k.type !== 'decision' && k.status !== 'active') fail(`${k.key}: bad status`);
}
// decision docs carry status "accepted"; normalise the internal status field after rendering checks
for (const k of knowhow.values()) if (k.type === 'decision' && !k.supersededBy) k.status = KNOWHOW.find(x => x.key === k.key).status ?? 'accepted';

const outputs = new Map(); // relative path -> content
for (const cat of Object.keys(SPEC_FILES)) outputs.set(`corpus/.workflow/specs/${SPEC_FILES[cat].file}`, renderSpecFile(cat));
for (const k of knowhow.values()) outputs.set(`corpus/.workflow/knowhow/${k.file}`, renderKnowhow(k));

// active documents per store, as a reconciler would load them
const activeDocs = [
  ...[...entries.values()].filter(e => e.status === 'active').map(e => ({ key: e.key, store: 'spec', id: e.sid, title: e.title, content: e.body })),
  ...[...knowhow.values()].filter(k => k.status !== 'deprecated').map(k => ({ key: k.key, store: 'knowhow', id: k.id, title: k.title, content: k.body })),
];
const deprecatedDocs = [
  ...[...entries.values()].filter(e => e.status === 'deprecated').map(e => ({ key: e.key, store: 'spec', content: e.body })),
  ...[...knowhow.values()].filter(k => k.status === 'deprecated').map(k => ({ key: k.key, store: 'knowhow', content: k.body })),
];

// ── cases ────────────────────────────────────────────────────────────────
const raw = [...CASES_A, ...CASES_B];
const cands = new Map();
const cases = [];
raw.forEach((c, i) => {
  const where = `case #${i + 1} "${c.title}"`;
  if (!DISPOSITIONS.includes(c.d)) fail(`${where}: bad disposition ${c.d}`);
  if (!['spec', 'knowhow'].includes(c.t)) fail(`${where}: bad target`);
  if (!['propose', 'supersede', 'contest', 'reaffirm'].includes(c.a)) fail(`${where}: bad action`);
  if (!c.title?.trim() || !c.content?.trim() || !c.kind || !c.note) fail(`${where}: missing field`);
  if (c.t === 'spec' && !SPEC_CATEGORIES.has(c.cat)) fail(`${where}: spec candidate with non-spec category ${c.cat}`);
  const acc = c.acc ?? [];
  for (const a of acc) if (!DISPOSITIONS.includes(a) || a === c.d) fail(`${where}: bad acceptable ${a}`);
  if (REVIEW.has(c.d) && acc.some(a => ELIGIBLE.has(a))) fail(`${where}: review-required label lists an eligible alternative`);
  if (c.d === 'unique') {
    if (c.c !== null) fail(`${where}: unique must have canonical null`);
  } else {
    const doc = docOf(c.c);
    if (!doc) fail(`${where}: unknown canonical key ${c.c}`);
    else if (doc.status === 'deprecated') fail(`${where}: canonical ${c.c} is deprecated`);
    else if (doc.store !== c.t && c.d !== 'related') fail(`${where}: cross-store canonical only allowed for related`);
  }
  for (const k of c.accC ?? []) {
    const doc = docOf(k);
    if (!doc || doc.status === 'deprecated') fail(`${where}: bad acceptable canonical ${k}`);
  }
  // exact-duplicate definition: same store + equal normalised content
  const sameStoreExact = activeDocs.filter(d => d.store === c.t && norm(d.content) === norm(c.content));
  if (c.d === 'exact_duplicate') {
    if (!sameStoreExact.some(d => d.key === c.c)) fail(`${where}: labelled exact_duplicate but not equal to ${c.c} after normalisation`);
    if (!activeDocs.some(d => d.key === c.c && normRef(d.content) === normRef(c.content))) fail(`${where}: reference normaliser disagrees`);
  } else if (sameStoreExact.length) {
    fail(`${where}: normalised content equals active ${sameStoreExact[0].key} but is labelled ${c.d}`);
  }
  const refExact = activeDocs.some(d => d.store === c.t && normRef(d.content) === normRef(c.content));
  if (refExact && c.d !== 'exact_duplicate' && !acc.includes('exact_duplicate')) fail(`${where}: reference normaliser calls it exact; list exact_duplicate as acceptable`);
  const deprecatedTwin = deprecatedDocs.find(d => d.store === c.t && norm(d.content) === norm(c.content));
  if (deprecatedTwin && !/deprecated/.test(c.kind)) fail(`${where}: equals deprecated ${deprecatedTwin.key}; tag the kind`);
  const cid = candidateId(c.t, c.content);
  if (cands.has(cid)) fail(`${where}: candidate id collides with "${cands.get(cid)}"`);
  cands.set(cid, c.title);
  cases.push({
    target: c.t, action: c.a, title: c.title, content: c.content, category: c.cat ?? null,
    expected: {
      disposition: c.d,
      canonical_id: c.c === null ? null : idOf(docOf(c.c)),
      acceptable: acc,
      ...(c.accC?.length ? { acceptable_canonical: c.accC.map(k => idOf(docOf(k))) } : {}),
    },
    kind: c.kind, note: c.note,
    _lang: hasHan(c.content) ? 'zh' : 'en',
  });
});

// deterministic shuffle so that ids do not reveal the label
let seed = 20261215;
const rand = () => { seed = (seed + 0x6d2b79f5) >>> 0; let t = seed; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
for (let i = cases.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [cases[i], cases[j]] = [cases[j], cases[i]]; }
cases.forEach((c, i) => { c.id = `c${String(i + 1).padStart(3, '0')}`; });

const jsonl = cases.map(({ _lang, ...c }) => JSON.stringify({ id: c.id, target: c.target, action: c.action, title: c.title, content: c.content,
  category: c.category, expected: c.expected, kind: c.kind, note: c.note })).join('\n') + '\n';
outputs.set('cases.jsonl', jsonl);

// ── counts ───────────────────────────────────────────────────────────────
const count = (xs, f) => xs.reduce((m, x) => { const k = f(x); m[k] = (m[k] ?? 0) + 1; return m; }, {});
const byDisp = count(cases, c => c.expected.disposition);
for (const d of DISPOSITIONS) if ((byDisp[d] ?? 0) < MIN_PER_DISPOSITION) fail(`only ${byDisp[d] ?? 0} cases for ${d} (need >= ${MIN_PER_DISPOSITION})`);
if (cases.length < MIN_CASES || cases.length > MAX_CASES) fail(`case count ${cases.length} outside ${MIN_CASES}-${MAX_CASES}`);

const activeCount = [...entries.values()].filter(e => e.status === 'active').length;
const depCount = entries.size - activeCount;
const zhEntries = [...entries.values()].filter(e => e.lang === 'zh').length;
const kinds = count(cases, c => c.kind);
const kindDisp = {};
for (const c of cases) { kindDisp[c.kind] ??= {}; kindDisp[c.kind][c.expected.disposition] = (kindDisp[c.kind][c.expected.disposition] ?? 0) + 1; }
const lines = [];
lines.push(`Corpus: ${entries.size} spec entries (${activeCount} active, ${depCount} deprecated; ${entries.size - zhEntries} English, ${zhEntries} Chinese) in ${Object.keys(SPEC_FILES).length} files, and ${knowhow.size} knowhow documents (${[...knowhow.values()].filter(k => k.status === 'deprecated').length} deprecated; ${[...knowhow.values()].filter(k => k.lang === 'zh').length} Chinese).`, '');
const langs = count(cases, c => c._lang), targets = count(cases, c => c.target), actions = count(cases, c => c.action);
lines.push(`Cases: ${cases.length} (English ${langs.en ?? 0}, Chinese ${langs.zh ?? 0}; target spec ${targets.spec ?? 0}, knowhow ${targets.knowhow ?? 0}; action ${Object.entries(actions).map(([k, v]) => `${k} ${v}`).join(', ')}).`, '');
lines.push('| expected disposition | cases | with acceptable alternatives | review required |', '|---|---:|---:|---|');
for (const d of DISPOSITIONS) {
  const xs = cases.filter(c => c.expected.disposition === d);
  lines.push(`| ${d} | ${xs.length} | ${xs.filter(c => c.expected.acceptable.length).length} | ${REVIEW.has(d) ? 'yes' : d === 'exact_duplicate' ? 'no (suppressed)' : 'no (eligible)'} |`);
}
const FAMILIES = [
  ['exact after normalisation (case, whitespace, full-width)', /^exact_/],
  ['near-duplicate, not exact (punctuation the normaliser keeps)', /^near_dup_/],
  ['paraphrase, incl. low word overlap (plus 2 easy minor-edit controls)', /^(paraphrase_|reaffirm_paraphrase|knowhow_paraphrase|minor_edit)/],
  ['contest or supersede naming its target only by paraphrase', /^(contest_action|supersede)_paraphrase/],
  ['translation / other language than the target', /translation|_cross$/],
  ['conflict by negation', /^negation_/],
  ['conflict without negation words (numbers, units, library/tool, order of steps, approver, practice)', /^(numeric|unit|choice|implicit|order|role)_conflict|^knowhow_(vs_spec_)?conflict/],
  ['equal values in other units (duplicate, not a conflict)', /^unit_equivalent/],
  ['shared boilerplate or ticket id only (unique)', /^boilerplate_overlap/],
  ['contest action', /^contest_action/],
  ['different scope, not a conflict', /^scope_differs/],
  ['compatible addition (related)', /^compatible_additive|^knowhow_related|^lexical_trap_related/],
  ['extends (restates + adds)', /^extends_|^verbatim_plus/],
  ['supersede action', /^supersede_/],
  ['closest text is a deprecated entry', /deprecated/],
  ['cross-store (spec vs knowhow)', /^cross_store/],
  ['unrelated or word-overlap-only (unique)', /^unrelated_|^lexical_overlap_unique|^boilerplate_overlap_unique|^action_without_target/],
];
lines.push('', 'Case families (a case can belong to more than one):', '', '| family | cases | expected dispositions |', '|---|---:|---|');
for (const [name, re] of FAMILIES) {
  const xs = cases.filter(c => re.test(c.kind));
  const dd = count(xs, c => c.expected.disposition);
  lines.push(`| ${name} | ${xs.length} | ${Object.entries(dd).map(([d, n]) => `${d} ${n}`).join(', ')} |`);
}
const docLang = (id) => { const d = [...entries.values()].find(e => e.sid === id) ?? [...knowhow.values()].find(k => k.id === id); return d?.lang; };
const crossLang = cases.filter(c => c.expected.canonical_id && docLang(c.expected.canonical_id) !== c._lang).length;
lines.push('', `Candidate and canonical target in different languages: ${crossLang} of ${cases.filter(c => c.expected.canonical_id).length} non-unique cases.`);
lines.push('', '| kind | cases | expected dispositions |', '|---|---:|---|');
for (const k of Object.keys(kinds).sort()) {
  lines.push(`| ${k} | ${kinds[k]} | ${Object.entries(kindDisp[k]).map(([d, n]) => `${d} ${n}`).join(', ')} |`);
}
const countsBlock = lines.join('\n');

const readmePath = join(ROOT, 'README.md');
if (existsSync(readmePath)) {
  const readme = readFileSync(readmePath, 'utf8');
  const re = /(<!-- counts:start -->\n)[\s\S]*?(<!-- counts:end -->)/;
  if (!re.test(readme)) fail('README.md lacks the counts markers');
  else outputs.set('README.md', readme.replace(re, `$1${countsBlock}\n$2`));
}

if (errors.length) {
  for (const e of errors) console.error('error: ' + e);
  console.error(`${errors.length} problem(s); nothing written.`);
  process.exit(1);
}

// ── write or check ───────────────────────────────────────────────────────
const corpusDir = join(ROOT, 'corpus/.workflow');
const expectedCorpusFiles = new Set([...outputs.keys()].filter(p => p.startsWith('corpus/')));
if (CHECK) {
  const stale = [];
  for (const [rel, content] of outputs) {
    const p = join(ROOT, rel);
    if (!existsSync(p) || readFileSync(p, 'utf8') !== content) stale.push(rel);
  }
  for (const sub of ['specs', 'knowhow']) {
    const dir = join(corpusDir, sub);
    if (existsSync(dir)) for (const f of readdirSync(dir)) if (!expectedCorpusFiles.has(`corpus/.workflow/${sub}/${f}`)) stale.push(`corpus/.workflow/${sub}/${f} (not produced by the build)`);
  }
  if (stale.length) { console.error('out of date:\n  ' + stale.join('\n  ')); process.exit(1); }
  console.log(`up to date: ${cases.length} cases, ${entries.size} spec entries, ${knowhow.size} knowhow docs`);
} else {
  rmSync(corpusDir, { recursive: true, force: true });
  for (const [rel, content] of outputs) {
    const p = join(ROOT, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  console.log(countsBlock);
}
