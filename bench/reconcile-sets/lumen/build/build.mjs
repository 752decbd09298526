#!/usr/bin/env node
// Render the "lumen" set (corpus/.workflow/ and cases.jsonl) from the hand-written sources in this folder,
// after mechanical checks. Also rewrites the counts section of ../README.md.
//
//   node build/build.mjs           render (refuses to write anything if a check fails)
//   node build/build.mjs --check   verify that the committed outputs are current
//
// No dependencies; Node >= 18.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SPEC_FILES, SPECS } from './corpus-specs.mjs';
import { KNOWHOW } from './corpus-knowhow.mjs';
import casesA from './cases-a.mjs';
import casesB from './cases-b.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const CHECK = process.argv.includes('--check');
const DISPOSITIONS = ['unique', 'exact_duplicate', 'semantic_duplicate', 'extends', 'related', 'potential_conflict', 'supersede_candidate'];
const REVIEW = new Set(['semantic_duplicate', 'extends', 'potential_conflict', 'supersede_candidate']);
const ELIGIBLE = new Set(['unique', 'related']);
const CROSS_STORE_OK = new Set(['related', 'potential_conflict']);

const errors = [];
const fail = (m) => errors.push(m);
const N = (s) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
const NQ = (s) => N(s.replace(/["'`“”‘’]/g, ''));
const slugify = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
const sha = (s) => createHash('sha256').update(s).digest('hex');
const candidateId = (target, content) => 'KDC-' + sha(`${target}\u0000${N(content)}`).slice(0, 16);
const hasHan = (s) => /\p{Script=Han}/u.test(s);
const fw = (s) => s.replace(/[!-~]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0));

// ── corpus ────────────────────────────────────────────────────────────────
const entries = new Map(); // key -> { key, store, id, body, active, lang, ... }
for (const s of SPECS) {
  if (entries.has(s.key)) fail(`duplicate corpus key ${s.key}`);
  if (!/^S-\d{8}-[a-z0-9]{4}$/.test(s.sid)) fail(`${s.key}: bad sid ${s.sid}`);
  if (s.sid.slice(2, 10) !== s.date.replace(/-/g, '')) fail(`${s.key}: sid date ${s.sid} does not match ${s.date}`);
  if (!SPEC_FILES[s.file]) fail(`${s.key}: unknown file ${s.file}`);
  if (/["<>]/.test(s.title)) fail(`${s.key}: title must not contain quotes or angle brackets`);
  entries.set(s.key, { ...s, store: 'spec', id: s.sid, active: s.status !== 'deprecated' });
}
for (const k of KNOWHOW) {
  if (entries.has(k.key)) fail(`duplicate corpus key ${k.key}`);
  if (!/^(RCP|TIP|REF|DCS|TPL)-\d{8}-[a-z0-9-]+$/.test(k.stem)) fail(`${k.key}: bad file stem ${k.stem}`);
  if (k.stem.slice(4, 12) !== k.created.slice(0, 10).replace(/-/g, '')) fail(`${k.key}: stem date does not match created`);
  entries.set(k.key, { ...k, store: 'knowhow', id: 'knowhow-' + slugify(k.stem), active: k.status !== 'deprecated' });
}
const sids = SPECS.map(s => s.sid);
if (new Set(sids).size !== sids.length) fail('sids are not unique');
for (const e of entries.values()) {
  for (const f of ['supersededBy', 'supersedes']) {
    if (!e[f]) continue;
    const t = entries.get(e[f]);
    if (!t) { fail(`${e.key}: ${f} ${e[f]} does not exist`); continue; }
    if (t.store !== e.store) fail(`${e.key}: ${f} crosses stores`);
  }
  if (e.supersededBy && entries.get(e.supersededBy)?.supersedes !== e.key && e.store === 'spec') fail(`${e.key}: successor ${e.supersededBy} does not name it in supersedes`);
  if (e.status === 'deprecated' && !e.supersededBy) fail(`${e.key}: deprecated without successor`);
}
const idOf = (key) => entries.get(key).id;

function renderSpecFile(file) {
  const m = SPEC_FILES[file];
  const out = ['---', `title: "${m.title}"`, `readMode: ${m.readMode}`, `priority: ${m.priority}`, `category: ${m.category}`, 'keywords:',
    ...m.keywords.map(k => `  - ${k}`), '---', '', `# ${m.title}`, ''];
  if (m.intro) out.push(m.intro, '');
  for (const s of m.sections) out.push(`## ${s}`, '');
  out.push('## Entries', '');
  const list = SPECS.filter(s => s.file === file).sort((a, b) => a.date.localeCompare(b.date) || a.sid.localeCompare(b.sid));
  for (const s of list) {
    let attrs = `category="${s.category}" keywords="${s.keywords}" date="${s.date}" sid="${s.sid}" title="${s.title}" source="main@${sha(s.sid).slice(0, 7)}"`;
    if (s.ref) attrs += ` ref="${s.ref}"`;
    if (s.supersedes) attrs += ` supersedes="${idOf(s.supersedes)}"`;
    if (s.status === 'deprecated') attrs += ` status="deprecated" superseded-by="${idOf(s.supersededBy)}"`;
    out.push(`<spec-entry ${attrs}>`, '', `### ${s.title}`, '', s.body, '', '</spec-entry>', '');
  }
  return out.join('\n');
}

function renderKnowhow(k) {
  const out = ['---', `title: ${k.title}`, `type: ${k.type}`, `category: ${k.category}`, `created: ${k.created}`, 'keywords:',
    ...k.keywords.map(x => `  - ${x}`), 'tags:', ...k.tags.map(x => `  - ${x}`)];
  if (k.status === 'deprecated') out.push('status: "deprecated"', `supersededBy: "${idOf(k.supersededBy)}"`);
  else if (k.status) out.push(`status: ${k.status}`);
  out.push('---', '', k.body, '');
  return out.join('\n');
}

const files = new Map();
for (const f of Object.keys(SPEC_FILES)) files.set(join('corpus', '.workflow', 'specs', `${f}.md`), renderSpecFile(f));
for (const k of KNOWHOW) files.set(join('corpus', '.workflow', 'knowhow', `${k.stem}.md`), renderKnowhow(k));

// ── cases ─────────────────────────────────────────────────────────────────
const body = (key) => { const e = entries.get(key); if (!e) throw new Error(`body(): unknown key ${key}`); return e.body; };
const raw = [...casesA({ body, fw }), ...casesB({ body, fw })];

// Deterministic shuffle (Lehmer, seed 20261201) so that ids do not reveal the disposition.
let r = 20261201;
const rnd = () => (r = (r * 48271) % 2147483647) / 2147483647;
const order = raw.map((c, i) => ({ c, k: rnd(), i })).sort((a, b) => a.k - b.k || a.i - b.i).map(x => x.c);

const activeByStore = { spec: [], knowhow: [] };
const deprecatedByStore = { spec: [], knowhow: [] };
for (const e of entries.values()) (e.active ? activeByStore : deprecatedByStore)[e.store].push(e);

const cases = [];
const seenCid = new Map();
order.forEach((c, i) => {
  const id = `c${String(i + 1).padStart(3, '0')}`;
  const where = `${id} (${c.kind}: ${c.title})`;
  const acc = c.acc ?? [];
  const accCanonKeys = c.accCanon ?? c.acc_canon ?? [];
  if (!DISPOSITIONS.includes(c.d)) fail(`${where}: unknown disposition ${c.d}`);
  if (!['spec', 'knowhow'].includes(c.t)) fail(`${where}: bad target ${c.t}`);
  if (!['propose', 'reaffirm', 'supersede', 'contest'].includes(c.a)) fail(`${where}: bad action ${c.a}`);
  for (const f of ['title', 'content', 'cat', 'kind', 'note']) if (typeof c[f] !== 'string' || !c[f].trim()) fail(`${where}: missing ${f}`);
  for (const a of acc) if (!DISPOSITIONS.includes(a) || a === c.d) fail(`${where}: bad acceptable ${a}`);
  if ((c.d === 'unique') !== (c.to === null)) fail(`${where}: unique iff canonical null`);
  let target = null;
  if (c.to !== null) {
    target = entries.get(c.to);
    if (!target) fail(`${where}: unknown target ${c.to}`);
    else {
      if (!target.active) fail(`${where}: target ${c.to} is deprecated`);
      if (target.store !== c.t && !CROSS_STORE_OK.has(c.d)) fail(`${where}: ${c.d} may not point into the other store`);
    }
  }
  for (const k of accCanonKeys) { const e = entries.get(k); if (!e || !e.active) fail(`${where}: acceptable canonical ${k} missing or deprecated`); }
  if (REVIEW.has(c.d) && acc.some(a => ELIGIBLE.has(a))) fail(`${where}: review-required label lists an eligible alternative`);
  if (c.a === 'contest' && !['potential_conflict', 'unique', 'exact_duplicate'].includes(c.d)) fail(`${where}: contest must be potential_conflict or unique`);
  if (c.a === 'supersede' && !['supersede_candidate', 'unique', 'exact_duplicate'].includes(c.d)) fail(`${where}: supersede must be supersede_candidate or unique`);
  if (c.a !== 'supersede' && c.d === 'supersede_candidate') fail(`${where}: supersede_candidate needs action supersede`);
  if (c.a !== 'contest' && c.d === 'potential_conflict' && c.kind.startsWith('contest')) fail(`${where}: contest kind without contest action`);
  // exactness
  const n = N(c.content);
  const sameStoreExact = activeByStore[c.t].filter(e => N(e.body) === n);
  if (c.d === 'exact_duplicate') {
    if (!target || target.store !== c.t || N(target.body) !== n) fail(`${where}: exact_duplicate does not equal its target after N()`);
    if (target && NQ(target.body) !== NQ(c.content)) fail(`${where}: exact_duplicate differs under the quote-stripping normaliser`);
  } else if (sameStoreExact.length) fail(`${where}: equals active entry ${sameStoreExact.map(e => e.key)} after N() but is not exact_duplicate`);
  const quoteExact = activeByStore[c.t].filter(e => NQ(e.body) === NQ(c.content));
  if (c.d !== 'exact_duplicate' && quoteExact.length && !acc.includes('exact_duplicate')) fail(`${where}: exact under quote stripping; list exact_duplicate as acceptable`);
  const depExact = deprecatedByStore[c.t].filter(e => N(e.body) === n);
  if (depExact.length && !c.kind.startsWith('deprecated')) fail(`${where}: identical to deprecated ${depExact.map(e => e.key)} but not tagged deprecated_*`);
  const cid = candidateId(c.t, c.content);
  if (seenCid.has(cid)) fail(`${where}: candidate id collides with ${seenCid.get(cid)}`);
  seenCid.set(cid, id);

  const expected = { disposition: c.d, canonical_id: c.to === null ? null : idOf(c.to), acceptable: acc };
  if (accCanonKeys.length) expected.acceptable_canonical = accCanonKeys.map(idOf);
  cases.push({ line: { id, target: c.t, action: c.a, title: c.title, content: c.content, category: c.cat, expected, kind: c.kind, note: c.note },
    lang: hasHan(c.content) ? 'zh' : 'en', targetLang: target ? (hasHan(target.body) ? 'zh' : 'en') : null, targetStore: target?.store ?? null });
});
const byDisp = Object.fromEntries(DISPOSITIONS.map(d => [d, cases.filter(c => c.line.expected.disposition === d)]));
for (const d of DISPOSITIONS) if (byDisp[d].length < 20) fail(`only ${byDisp[d].length} cases for ${d} (need >= 20)`);
if (cases.length < 180 || cases.length > 220) fail(`total ${cases.length} cases, need 180..220`);

if (errors.length) {
  console.error(`build: ${errors.length} check(s) failed; nothing written:\n  ` + errors.join('\n  '));
  process.exit(1);
}
files.set('cases.jsonl', cases.map(c => JSON.stringify(c.line)).join('\n') + '\n');

// ── counts for the README ─────────────────────────────────────────────────
const specE = [...entries.values()].filter(e => e.store === 'spec');
const khE = [...entries.values()].filter(e => e.store === 'knowhow');
const count = (xs, f) => xs.filter(f).length;
const lines = [];
lines.push(`Corpus: ${specE.length} spec entries (${count(specE, e => e.active)} active, ${count(specE, e => !e.active)} deprecated; ` +
  `${count(specE, e => !hasHan(e.body))} English, ${count(specE, e => hasHan(e.body))} Chinese) in ${Object.keys(SPEC_FILES).length} files, ` +
  `and ${khE.length} knowhow documents (${count(khE, e => !e.active)} deprecated; ${count(khE, e => hasHan(e.body))} Chinese).`, '');
const L = cases.map(c => c.line);
lines.push(`Cases: ${L.length} (English ${count(cases, c => c.lang === 'en')}, Chinese ${count(cases, c => c.lang === 'zh')}; ` +
  `target spec ${count(L, c => c.target === 'spec')}, knowhow ${count(L, c => c.target === 'knowhow')}; ` +
  ['contest', 'supersede', 'reaffirm', 'propose'].map(a => `action ${a} ${count(L, c => c.action === a)}`).join(', ') + ').', '');
lines.push('| expected disposition | cases | with acceptable alternatives | review required |', '|---|---:|---:|---|');
const promo = { unique: 'no (eligible)', related: 'no (eligible)', exact_duplicate: 'no (suppressed)' };
for (const d of DISPOSITIONS) lines.push(`| ${d} | ${byDisp[d].length} | ${count(byDisp[d], c => c.line.expected.acceptable.length > 0)} | ${promo[d] ?? 'yes'} |`);
lines.push('');
const nonUnique = cases.filter(c => c.targetLang);
lines.push(`Candidate and canonical target in different languages: ${count(nonUnique, c => c.lang !== c.targetLang)} of ${nonUnique.length} non-unique cases. ` +
  `Candidate and canonical target in different stores: ${count(nonUnique, c => c.targetStore !== c.line.target)}.`, '');
lines.push('| kind | cases | expected dispositions |', '|---|---:|---|');
const kinds = [...new Set(L.map(c => c.kind))].sort();
for (const k of kinds) {
  const ks = L.filter(c => c.kind === k);
  const dist = DISPOSITIONS.filter(d => ks.some(c => c.expected.disposition === d)).map(d => `${d} ${count(ks, c => c.expected.disposition === d)}`).join(', ');
  lines.push(`| ${k} | ${ks.length} | ${dist} |`);
}
const countsBlock = `<!-- counts:start -->\n${lines.join('\n')}\n<!-- counts:end -->`;
const readmePath = join(ROOT, 'README.md');
if (existsSync(readmePath)) {
  const readme = readFileSync(readmePath, 'utf8');
  files.set('README.md', readme.replace(/<!-- counts:start -->[\s\S]*<!-- counts:end -->/, countsBlock));
}

// ── write or check ────────────────────────────────────────────────────────
if (CHECK) {
  const stale = [...files].filter(([p, text]) => !existsSync(join(ROOT, p)) || readFileSync(join(ROOT, p), 'utf8') !== text).map(([p]) => p);
  const corpusDir = join(ROOT, 'corpus', '.workflow');
  for (const sub of ['specs', 'knowhow']) {
    const d = join(corpusDir, sub);
    if (existsSync(d)) for (const f of readdirSync(d)) if (!files.has(join('corpus', '.workflow', sub, f))) stale.push(`corpus/.workflow/${sub}/${f} (extra)`);
  }
  if (stale.length) { console.error(`build --check: stale outputs:\n  ${stale.join('\n  ')}`); process.exit(1); }
  console.log(`build --check: ${files.size} outputs current`);
} else {
  rmSync(join(ROOT, 'corpus'), { recursive: true, force: true });
  for (const [p, text] of files) { mkdirSync(dirname(join(ROOT, p)), { recursive: true }); writeFileSync(join(ROOT, p), text); }
  console.log(`build: wrote ${files.size} files; ${L.length} cases; ` + DISPOSITIONS.map(d => `${d} ${byDisp[d].length}`).join(', '));
}
