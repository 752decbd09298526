// Checks prompts.jsonl: JSON shape, case ids, that every labelled id is listed by the built CLI for its
// project root with the recorded file and title, no deprecated labels, no id twice in one case, and
// that prompts.jsonl matches what build.mjs makes from src/ (`node validate.mjs <file>` checks another file,
// without the src/ comparison). Reports every problem, exits 1 if any,
// and prints counts per project.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildLines } from './build.mjs';
import { CORPUS, listEntries, maestroBin } from './corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const FIELDS = ['id', 'project', 'root', 'prompt', 'must_see', 'relevant', 'note'];
const LABEL_FIELDS = ['id', 'file', 'title'];
const CASE_ID = /^[a-z][a-z0-9]*-\d{2}$/;

const problems = [];
const at = (n, msg) => problems.push(`${process.argv[2] ?? 'prompts.jsonl'}:${n}: ${msg}`);

function checkLabel(n, where, label) {
  if (typeof label !== 'object' || label === null || Array.isArray(label)) {
    at(n, `${where}: a label must be an object {id, file, title}`);
    return false;
  }
  for (const k of Object.keys(label)) if (!LABEL_FIELDS.includes(k)) at(n, `${where}: unknown label field "${k}"`);
  for (const k of LABEL_FIELDS) {
    if (typeof label[k] !== 'string' || label[k] === '')
      at(n, `${where}: label field "${k}" must be a non-empty string`);
  }
  return typeof label.id === 'string';
}

function checkShape(n, c) {
  if (typeof c !== 'object' || c === null || Array.isArray(c)) {
    at(n, 'a line must be a JSON object');
    return false;
  }
  for (const k of Object.keys(c)) if (!FIELDS.includes(k)) at(n, `unknown field "${k}"`);
  let ok = true;
  for (const k of ['id', 'project', 'prompt', 'note']) {
    if (typeof c[k] !== 'string' || c[k].trim() === '') {
      at(n, `field "${k}" must be a non-empty string`);
      ok = false;
    }
  }
  if (typeof c.root !== 'string') {
    at(n, 'field "root" must be a string ("" = the project folder)');
    ok = false;
  }
  for (const k of ['must_see', 'relevant']) {
    if (!Array.isArray(c[k])) {
      at(n, `field "${k}" must be an array`);
      ok = false;
    } else {
      c[k].forEach((l, i) => {
        if (!checkLabel(n, `${k}[${i}]`, l)) ok = false;
      });
    }
  }
  if (typeof c.id === 'string' && !CASE_ID.test(c.id)) at(n, `case id "${c.id}" must look like <prefix>-NN`);
  return ok;
}

const listings = new Map();
function listingFor(n, project, root) {
  const key = `${project}\u0000${root}`;
  if (!listings.has(key)) {
    let map = null;
    if (!existsSync(join(CORPUS, project))) at(n, `project folder ${project} does not exist under ${CORPUS}`);
    else if (!existsSync(join(CORPUS, project, root, '.workflow')))
      at(n, `workflow root "${root}" of ${project} has no .workflow/`);
    else map = listEntries(project, root);
    listings.set(key, map);
  }
  return listings.get(key);
}

function checkLabels(n, c) {
  const listing = listingFor(n, c.project, c.root);
  if (!listing) return;
  const seen = new Set();
  for (const k of ['must_see', 'relevant']) {
    for (const l of c[k]) {
      if (seen.has(l.id)) at(n, `${c.id}: id ${l.id} is labelled twice`);
      seen.add(l.id);
      const e = listing.get(l.id);
      if (!e) {
        at(n, `${c.id}: ${k} id ${l.id} is not listed by the CLI for ${c.project} root "${c.root}"`);
        continue;
      }
      if (e.file !== l.file) at(n, `${c.id}: ${l.id} file is "${e.file}" in the CLI listing, not "${l.file}"`);
      if (e.title !== l.title) at(n, `${c.id}: ${l.id} title is "${e.title}" in the CLI listing, not "${l.title}"`);
      if (e.status === 'deprecated') at(n, `${c.id}: ${l.id} is deprecated; label its successor instead`);
    }
  }
}

function language(text) {
  const cjk = (text.match(/[\u3400-\u9fff]/g) ?? []).length;
  const latin = (text.match(/[A-Za-z]/g) ?? []).length;
  if (cjk === 0) return 'en';
  return latin < 1.5 * cjk ? 'zh' : 'mixed';
}

const defaultPath = join(here, 'prompts.jsonl');
const path = process.argv[2] ?? defaultPath;
const text = readFileSync(path, 'utf8');
const cases = [];
const ids = new Set();
text.split('\n').forEach((line, i) => {
  const n = i + 1;
  if (line.trim() === '') return;
  let c;
  try {
    c = JSON.parse(line);
  } catch (err) {
    at(n, `not JSON (${err.message})`);
    return;
  }
  if (!checkShape(n, c)) return;
  if (ids.has(c.id)) at(n, `duplicate case id ${c.id}`);
  ids.add(c.id);
  checkLabels(n, c);
  cases.push(c);
});

if (path === defaultPath) {
  const built = buildLines();
  for (const p of built.problems) problems.push(p);
  const rebuilt = built.lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  if (built.problems.length === 0 && rebuilt !== text)
    problems.push('prompts.jsonl differs from src/: run node build.mjs');
}

const rows = new Map();
for (const c of cases) {
  const key = c.root ? `${c.project} (root ${c.root})` : c.project;
  const r = rows.get(key) ?? { n: 0, must: 0, relOnly: 0, none: 0, zh: 0, en: 0, mixed: 0 };
  r.n++;
  if (c.must_see.length > 0) r.must++;
  else if (c.relevant.length > 0) r.relOnly++;
  else r.none++;
  r[language(c.prompt)]++;
  rows.set(key, r);
}
const total = { n: 0, must: 0, relOnly: 0, none: 0, zh: 0, en: 0, mixed: 0 };
process.stdout.write(
  '| project (root) | prompts | with must-see | relevant only | nothing relevant | zh / en / mixed |\n',
);
process.stdout.write('|---|---|---|---|---|---|\n');
for (const [key, r] of [...rows].sort()) {
  for (const k of Object.keys(total)) total[k] += r[k];
  process.stdout.write(`| ${key} | ${r.n} | ${r.must} | ${r.relOnly} | ${r.none} | ${r.zh} / ${r.en} / ${r.mixed} |\n`);
}
process.stdout.write(
  `| **total** | ${total.n} | ${total.must} | ${total.relOnly} | ${total.none} | ${total.zh} / ${total.en} / ${total.mixed} |\n`,
);
const mustLabels = cases.reduce((s, c) => s + c.must_see.length, 0);
const relLabels = cases.reduce((s, c) => s + c.relevant.length, 0);
const distinct = new Set(cases.flatMap((c) => [...c.must_see, ...c.relevant].map((l) => `${c.project}/${l.id}`)));
const knowhow = cases
  .flatMap((c) => [...c.must_see, ...c.relevant])
  .filter((l) => l.file.includes('.workflow/knowhow/'));
const maxMust = cases.reduce((m, c) => Math.max(m, c.must_see.length), 0);
process.stdout.write(
  `\n${mustLabels} must-see labels (at most ${maxMust} per prompt), ${relLabels} relevant labels, ` +
    `${distinct.size} distinct entries, ${knowhow.length} labels on knowhow documents; ` +
    `nothing relevant: ${total.none} of ${total.n} (${Math.round((100 * total.none) / Math.max(1, total.n))}%). CLI: ${maestroBin()}\n`,
);

if (problems.length > 0) {
  process.stderr.write(`\n${problems.length} problem(s):\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write('valid\n');
