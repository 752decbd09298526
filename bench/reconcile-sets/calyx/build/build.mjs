#!/usr/bin/env node
// Render corpus/.workflow/ and cases.jsonl from build/corpus.mjs and build/cases.mjs, after mechanical checks.
//   node build/build.mjs            write outputs (refuses if any check fails)
//   node build/build.mjs --check    verify committed outputs are current
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FILES, SPECS, KNOWHOW } from './corpus.mjs';
import { CASES } from './cases.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const CHECK = process.argv.includes('--check');
const sha = (s) => createHash('sha256').update(s).digest('hex');
export const N = (s) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
// A more lenient normaliser that also drops quote characters (maestro-flow strips quotes before hashing).
const NQ = (s) => N(s.replace(/["'`\u2018\u2019\u201c\u201d\u300c\u300d\u300e\u300f]/g, ''));
const slugify = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
const errors = [];
const fail = (m) => errors.push(m);

// ── corpus ──────────────────────────────────────────────────────────────
const B36 = '0123456789abcdefghijklmnopqrstuvwxyz';
const sidOf = (e) => {
  const h = sha('calyx:' + e.key + ':' + e.title);
  let s = '';
  for (let i = 0; i < 4; i++) s += B36[parseInt(h.slice(i * 2, i * 2 + 2), 16) % 36];
  return `S-${e.date.replace(/-/g, '')}-${s}`;
};
const byKey = new Map();
for (const e of SPECS) {
  if (byKey.has(e.key)) fail(`duplicate key ${e.key}`);
  e.store = 'spec';
  e.id = sidOf(e);
  e.category = FILES[e.file];
  byKey.set(e.key, e);
}
for (const k of KNOWHOW) {
  if (byKey.has(k.key)) fail(`duplicate key ${k.key}`);
  k.store = 'knowhow';
  k.stem = `${k.prefix}-${k.date}-${k.slug ?? k.time}`;
  k.id = 'knowhow-' + slugify(k.stem);
  byKey.set(k.key, k);
}
const sids = new Set();
for (const e of SPECS) { if (sids.has(e.id)) fail(`duplicate sid ${e.id}`); sids.add(e.id); }
const all = [...byKey.values()];
const active = (e) => !e.dep;
for (const e of all) {
  if (e.dep) {
    const s = byKey.get(e.dep);
    if (!s) fail(`${e.key}: successor ${e.dep} missing`);
    else if (e.store === 'spec' && s.sup !== e.key) fail(`${e.key}: successor ${e.dep} does not list it in supersedes`);
  }
  if (e.sup) { const p = byKey.get(e.sup); if (!p || p.dep !== e.key) fail(`${e.key}: supersedes ${e.sup} which does not point back`); }
}

const SEED = {
  'architecture-constraints': `---\ntitle: "Architecture Constraints"\nreadMode: required\npriority: high\ncategory: arch\nkeywords:\n  - architecture\n  - module\n  - layer\n  - boundary\n  - dependency\n  - structure\n---\n\n# Architecture Constraints\n\n## Module Structure\n\n## Layer Boundaries\n\n## Dependency Rules\n\n## Technology Constraints\n\n## Entries\n`,
  'coding-conventions': `---\ntitle: "Coding Conventions"\nreadMode: required\npriority: high\ncategory: coding\nkeywords:\n  - style\n  - naming\n  - import\n  - pattern\n  - convention\n  - formatting\n---\n\n# Coding Conventions\n\n## Formatting\n\n## Naming\n\n## Imports\n\n## Patterns\n\n## Entries\n`,
  'debug-notes': `---\ntitle: "Debug Notes"\nreadMode: optional\npriority: medium\ncategory: debug\nkeywords:\n  - debug\n  - issue\n  - workaround\n  - root-cause\n  - gotcha\n---\n\n# Debug Notes\n\n## Entries\n`,
  'learnings': `---\ntitle: "Learnings"\nreadMode: optional\npriority: medium\ncategory: learning\nkeywords:\n  - bug\n  - lesson\n  - gotcha\n  - learning\n---\n\n# Learnings\n\nAdd entries with: \`/maestro-spec learning <description>\`\n\n## Entries\n`,
  'review-standards': `---\ntitle: "Review Standards"\nreadMode: required\npriority: medium\ncategory: review\nkeywords:\n  - review\n  - checklist\n  - gate\n  - approval\n  - standard\n---\n\n# Review Standards\n\n## Entries\n`,
  'test-conventions': `---\ntitle: "Test Conventions"\nreadMode: required\npriority: high\ncategory: test\nkeywords:\n  - test\n  - coverage\n  - mock\n  - fixture\n  - assertion\n  - framework\n---\n\n# Test Conventions\n\n## Framework\n\n## Directory Structure\n\n## Naming Conventions\n\n## Patterns\n\n## Entries\n`,
  'ui-conventions': `---\ntitle: "UI Conventions"\nreadMode: optional\npriority: medium\ncategory: ui\nkeywords:\n  - ui\n  - design\n  - color\n  - typography\n  - layout\n  - animation\n  - component\n---\n\n# UI Conventions\n\n## Color & Theme\n\n## Typography\n\n## Layout & Spacing\n\n## Motion & Animation\n\n## Component Patterns\n\n## Entries\n`,
};

const outputs = new Map(); // relative path -> text
for (const file of Object.keys(FILES)) {
  const entries = SPECS.filter(e => e.file === file).sort((a, b) => a.date.localeCompare(b.date) || a.key.localeCompare(b.key));
  let text = SEED[file];
  for (const e of entries) {
    if (/"/.test(e.title)) fail(`${e.key}: title has a double quote`);
    let tag = `<spec-entry category="${e.category}" keywords="${e.kw}" date="${e.date}" sid="${e.id}" title="${e.title}" source="main@${sha('src:' + e.key).slice(0, 7)}"`;
    if (e.ref) tag += ` ref="${e.ref}"`;
    if (e.sup) tag += ` supersedes="${byKey.get(e.sup).id}"`;
    if (e.dep) tag += ` status="deprecated" superseded-by="${byKey.get(e.dep).id}"`;
    tag += '>';
    text += `\n${tag}\n\n### ${e.title}\n\n${e.body}\n\n</spec-entry>\n`;
  }
  outputs.set(join('corpus', '.workflow', 'specs', file + '.md'), text);
}
const yamlStr = (s) => (/^[A-Za-z0-9][A-Za-z0-9 ,.()-]*$/.test(s) ? s : JSON.stringify(s));
for (const k of KNOWHOW) {
  const hh = k.time.slice(0, 2), mm = k.time.slice(2);
  let fm = `---\ntitle: ${yamlStr(k.title)}\ntype: ${k.type}\ncategory: ${k.category}\ncreated: ${k.date.slice(0, 4)}-${k.date.slice(4, 6)}-${k.date.slice(6)}T${hh}:${mm}:00.000Z\n`;
  fm += `keywords:\n${k.keywords.map(w => `  - ${w}`).join('\n')}\ntags:\n${k.tags.map(w => `  - ${w}`).join('\n')}\n`;
  if (k.dep) fm += `status: "deprecated"\nsupersededBy: "${byKey.get(k.dep).id}"\n`;
  else if (k.status) fm += `status: ${k.status}\n`;
  fm += '---\n\n';
  outputs.set(join('corpus', '.workflow', 'knowhow', k.stem + '.md'), fm + k.body + '\n');
}

// ── cases ───────────────────────────────────────────────────────────────
const DISP = ['unique', 'exact_duplicate', 'semantic_duplicate', 'extends', 'related', 'potential_conflict', 'supersede_candidate'];
const REVIEW = new Set(['semantic_duplicate', 'extends', 'potential_conflict', 'supersede_candidate']);
const FW = (s) => s.replace(/[A-Za-z0-9]/g, ch => String.fromCharCode(ch.charCodeAt(0) + 0xFEE0));
const TRANSFORMS = {
  verbatim: (s) => s,
  upper: (s) => s.toUpperCase(),
  lower: (s) => s.toLowerCase(),
  ws: (s) => '  ' + s.replace(/ /g, '  ').replace(/([.;；。]) +/, '$1\n\n') + '\n',
  fwalnum: (s) => FW(s),                                   // full-width Latin letters and digits
  fwdigits: (s) => s.replace(/[0-9]/g, ch => String.fromCharCode(ch.charCodeAt(0) + 0xFEE0)),
  asciipunct: (s) => s.replace(/，/g, ',').replace(/；/g, ';').replace(/：/g, ':').replace(/（/g, '(').replace(/）/g, ')'),
  mixed: (s) => s.toUpperCase().replace(/ /g, ' \t '),
};
const rows = [];
const cidSeen = new Map();
const count = (f) => { const m = {}; for (const r of rows) { const k = f(r); m[k] = (m[k] ?? 0) + 1; } return m; };
CASES.forEach((c, i) => {
  const id = 'c' + String(i + 1).padStart(3, '0');
  const where = `${id} (${c.kind})`;
  let content = c.content;
  if (c.x) {
    const [key, ...ts] = c.x;
    const e = byKey.get(key);
    if (!e) { fail(`${where}: x refers to unknown ${key}`); return; }
    content = e.body;
    for (const t of ts) { if (!TRANSFORMS[t]) fail(`${where}: unknown transform ${t}`); else content = TRANSFORMS[t](content); }
    if (c.append) content = content + c.append;
    if (c.prepend) content = c.prepend + content;
  }
  if (c.replace) for (const [a, b] of c.replace) { if (!content.includes(a)) fail(`${where}: replace "${a}" not found`); content = content.split(a).join(b); }
  if (typeof content !== 'string' || !content.trim()) { fail(`${where}: no content`); return; }
  if (!['spec', 'knowhow'].includes(c.target)) fail(`${where}: bad target`);
  if (!['propose', 'reaffirm', 'supersede', 'contest'].includes(c.action)) fail(`${where}: bad action`);
  if (!DISP.includes(c.d)) fail(`${where}: bad disposition ${c.d}`);
  if (!['en', 'zh'].includes(c.lang)) fail(`${where}: bad language`);
  const tgt = c.to ? byKey.get(c.to) : null;
  if (c.d === 'unique' ? c.to : !c.to) fail(`${where}: unique <-> no target`);
  if (c.to && !tgt) fail(`${where}: unknown target ${c.to}`);
  if (tgt && !active(tgt)) fail(`${where}: target ${c.to} is deprecated`);
  const accC = (c.accc ?? []).map(k => { const e = byKey.get(k); if (!e) fail(`${where}: unknown acceptable target ${k}`); else if (!active(e)) fail(`${where}: acceptable target ${k} deprecated`); return e?.id; });
  const acc = c.acc ?? [];
  for (const a of acc) if (!DISP.includes(a) || a === c.d) fail(`${where}: bad acceptable ${a}`);
  if (REVIEW.has(c.d) && acc.some(a => a === 'unique' || a === 'related')) fail(`${where}: review-required label lists an eligible alternative`);
  if (tgt && tgt.store !== c.target && !['related', 'potential_conflict'].includes(c.d)) fail(`${where}: cross-store target with ${c.d}`);
  // exactness
  const sameStoreActive = all.filter(e => e.store === c.target && active(e));
  const exactHits = sameStoreActive.filter(e => N(e.body) === N(content));
  if (c.d === 'exact_duplicate') {
    if (!tgt || N(tgt.body) !== N(content)) fail(`${where}: exact_duplicate but content != target body after N`);
    if (tgt && NQ(tgt.body) !== NQ(content)) fail(`${where}: exact under N but not under quote-stripping N`);
  } else {
    if (exactHits.length) fail(`${where}: equals ${exactHits.map(e => e.key)} after N but labelled ${c.d}`);
    const q = sameStoreActive.filter(e => NQ(e.body) === NQ(content));
    if (q.length && !acc.includes('exact_duplicate')) fail(`${where}: equals ${q.map(e => e.key)} under quote-stripping N; list exact_duplicate as acceptable`);
  }
  const dep = all.filter(e => !active(e) && e.store === c.target && N(e.body) === N(content));
  if (dep.length && !/deprecated/.test(c.kind)) fail(`${where}: identical to deprecated ${dep.map(e => e.key)} but kind does not say so`);
  const cid = 'KDC-' + sha(`${c.target}\u0000${N(content)}`).slice(0, 16);
  if (cidSeen.has(cid)) fail(`${where}: candidate id collides with ${cidSeen.get(cid)}`);
  cidSeen.set(cid, id);
  const expected = { disposition: c.d, canonical_id: tgt ? tgt.id : null, acceptable: acc };
  if (accC.length) expected.acceptable_canonical = accC;
  const category = c.category ?? (tgt ? tgt.category : (c.target === 'spec' ? 'general' : 'general'));
  rows.push({ id, target: c.target, action: c.action, title: c.title, content, category, expected, kind: c.kind, note: c.note, language: c.lang,
    _tlang: tgt?.lang, _tstore: tgt?.store });
});
const perDisp = count(r => r.expected.disposition);
for (const d of DISP) if ((perDisp[d] ?? 0) < 18) fail(`disposition ${d} has only ${perDisp[d] ?? 0} cases`);
if (rows.length < 180 || rows.length > 230) fail(`total ${rows.length} out of range`);
for (const r of rows) if (!r.note || !r.title || !r.kind) fail(`${r.id}: missing note/title/kind`);

if (errors.length) { console.error(errors.join('\n')); console.error(`${errors.length} check(s) failed; nothing written`); process.exit(1); }

outputs.set('cases.jsonl', rows.map(({ _tlang, _tstore, ...r }) => JSON.stringify(r)).join('\n') + '\n');

// ── write or check ──────────────────────────────────────────────────────
if (CHECK) {
  let stale = 0;
  for (const [p, t] of outputs) { const f = join(ROOT, p); if (!existsSync(f) || readFileSync(f, 'utf8') !== t) { console.error(`stale: ${p}`); stale++; } }
  process.exit(stale ? 1 : 0);
}
rmSync(join(ROOT, 'corpus'), { recursive: true, force: true });
for (const [p, t] of outputs) { mkdirSync(dirname(join(ROOT, p)), { recursive: true }); writeFileSync(join(ROOT, p), t); }

// ── counts for the README ───────────────────────────────────────────────
const specActive = SPECS.filter(active).length, khActive = KNOWHOW.filter(active).length;
const lines = [];
lines.push(`Corpus: ${SPECS.length} spec entries (${specActive} active, ${SPECS.length - specActive} deprecated; ${SPECS.filter(e => e.lang === 'en').length} English, ${SPECS.filter(e => e.lang === 'zh').length} Chinese) in ${Object.keys(FILES).length} files, and ${KNOWHOW.length} knowhow documents (${KNOWHOW.length - khActive} deprecated; ${KNOWHOW.filter(k => k.lang === 'zh').length} Chinese).`);
lines.push('');
const lang = count(r => r.language), tgt = count(r => r.target), act = count(r => r.action);
lines.push(`Cases: ${rows.length} (English ${lang.en ?? 0}, Chinese ${lang.zh ?? 0}; target spec ${tgt.spec ?? 0}, knowhow ${tgt.knowhow ?? 0}; action ${Object.entries(act).sort().map(([k, v]) => `${k} ${v}`).join(', ')}).`);
lines.push('');
lines.push('| expected disposition | cases | English | Chinese | with acceptable alternatives | review required |');
lines.push('|---|---:|---:|---:|---:|---|');
const pol = { unique: 'no (eligible)', related: 'no (eligible)', exact_duplicate: 'no (suppressed)' };
for (const d of DISP) {
  const rs = rows.filter(r => r.expected.disposition === d);
  lines.push(`| ${d} | ${rs.length} | ${rs.filter(r => r.language === 'en').length} | ${rs.filter(r => r.language === 'zh').length} | ${rs.filter(r => r.expected.acceptable.length).length} | ${pol[d] ?? 'yes'} |`);
}
lines.push('');
const nonU = rows.filter(r => r.expected.canonical_id);
lines.push(`Candidate and canonical target in different languages: ${nonU.filter(r => r._tlang !== r.language).length} of ${nonU.length} non-unique cases. Candidate and target in different stores: ${nonU.filter(r => r._tstore !== r.target).length}.`);
lines.push('');
lines.push('| disposition × action | propose | reaffirm | supersede | contest |');
lines.push('|---|---:|---:|---:|---:|');
for (const d of DISP) {
  const rs = rows.filter(r => r.expected.disposition === d);
  lines.push(`| ${d} | ${['propose', 'reaffirm', 'supersede', 'contest'].map(a => rs.filter(r => r.action === a).length).join(' | ')} |`);
}
lines.push('');
lines.push('| kind | cases | expected dispositions |');
lines.push('|---|---:|---|');
const kinds = [...new Set(rows.map(r => r.kind))].sort();
for (const k of kinds) {
  const rs = rows.filter(r => r.kind === k);
  const dd = {}; for (const r of rs) dd[r.expected.disposition] = (dd[r.expected.disposition] ?? 0) + 1;
  lines.push(`| ${k} | ${rs.length} | ${Object.entries(dd).map(([a, b]) => `${a} ${b}`).join(', ')} |`);
}
const readme = join(ROOT, 'README.md');
if (existsSync(readme)) {
  const t = readFileSync(readme, 'utf8');
  const s = t.indexOf('<!-- counts:start -->'), e = t.indexOf('<!-- counts:end -->');
  if (s >= 0 && e > s) writeFileSync(readme, t.slice(0, s) + '<!-- counts:start -->\n' + lines.join('\n') + '\n' + t.slice(e));
}
console.log(lines.join('\n'));
console.log(`\nwrote ${outputs.size} files`);
