// Checks prompts.jsonl: every line is a well-formed case, every labelled id exists in its project's corpus
// (listed through the built maestro CLI on a temporary copy) with the recorded file and title, and no label
// points at a deprecated entry. Prints every problem at once and per-project counts.
// Usage: node bench/context-prompts/validate.mjs [path/to/prompts.jsonl]
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPUS, listEntries } from './corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const path = process.argv[2] ?? join(here, 'prompts.jsonl');
const problems = [];
const cases = [];
const seen = new Set();

function checkShape(c, where) {
  const bad = (msg) => problems.push(`${where}: ${msg}`);
  if (c === null || typeof c !== 'object' || Array.isArray(c)) return bad('not a JSON object');
  for (const key of ['id', 'project', 'root', 'prompt', 'note']) {
    if (typeof c[key] !== 'string') bad(`"${key}" must be a string`);
  }
  for (const key of ['id', 'project', 'prompt', 'note']) {
    if (typeof c[key] === 'string' && c[key].trim() === '') bad(`"${key}" is empty`);
  }
  const extra = Object.keys(c).filter(
    (k) => !['id', 'project', 'root', 'prompt', 'must_see', 'relevant', 'note'].includes(k),
  );
  if (extra.length > 0) bad(`unknown field(s) ${extra.join(', ')}`);
  for (const key of ['must_see', 'relevant']) {
    if (!Array.isArray(c[key])) {
      bad(`"${key}" must be an array`);
      continue;
    }
    c[key].forEach((r, i) => {
      if (r === null || typeof r !== 'object' || ['id', 'file', 'title'].some((k) => typeof r[k] !== 'string')) {
        bad(`${key}[${i}] must be {id, file, title} strings`);
      }
    });
  }
  if (typeof c.id === 'string') {
    if (seen.has(c.id)) bad(`duplicate case id ${c.id}`);
    seen.add(c.id);
  }
}

const text = readFileSync(path, 'utf8');
text.split('\n').forEach((line, i) => {
  if (line.trim() === '') return;
  const where = `${path}:${i + 1}`;
  let c;
  try {
    c = JSON.parse(line);
  } catch (e) {
    problems.push(`${where}: invalid JSON (${e.message})`);
    return;
  }
  const before = problems.length;
  checkShape(c, where);
  if (problems.length === before) cases.push({ c, where });
});

const listings = new Map();
function entriesOf(project, root) {
  const key = `${project}\0${root}`;
  if (!listings.has(key)) {
    if (!existsSync(join(CORPUS, project))) listings.set(key, new Error(`no project folder ${join(CORPUS, project)}`));
    else {
      try {
        listings.set(key, listEntries(project, root));
      } catch (e) {
        listings.set(key, e);
      }
    }
  }
  return listings.get(key);
}

for (const { c, where } of cases) {
  const entries = entriesOf(c.project, c.root);
  if (entries instanceof Error) {
    problems.push(`${where}: ${c.id}: ${entries.message}`);
    continue;
  }
  const labelled = new Set();
  for (const key of ['must_see', 'relevant']) {
    for (const r of c[key]) {
      const e = entries.get(r.id);
      if (labelled.has(r.id)) problems.push(`${where}: ${c.id}: ${r.id} labelled twice`);
      labelled.add(r.id);
      if (e === undefined) {
        problems.push(`${where}: ${c.id}: ${key} id ${r.id} is not an entry of ${c.project} (root "${c.root}")`);
        continue;
      }
      if (e.file !== r.file) problems.push(`${where}: ${c.id}: ${r.id} file is ${e.file}, recorded ${r.file}`);
      if (e.title !== r.title) problems.push(`${where}: ${c.id}: ${r.id} title is "${e.title}", recorded "${r.title}"`);
      if (e.status === 'deprecated') problems.push(`${where}: ${c.id}: ${r.id} is deprecated; label its successor`);
    }
  }
}

// Language of a prompt: "en" without Han characters, "zh" when Han characters outnumber Latin letters (a Chinese
// sentence with a few identifiers), "mixed" otherwise.
function language(prompt) {
  const han = (prompt.match(/\p{Script=Han}/gu) ?? []).length;
  const latin = (prompt.match(/[A-Za-z]/g) ?? []).length;
  return han === 0 ? 'en' : han >= latin ? 'zh' : 'mixed';
}

const byProject = new Map();
const total = { prompts: 0, mustSee: 0, partial: 0, nothing: 0, zh: 0, en: 0, mixed: 0 };
for (const { c } of cases) {
  const key = c.root === '' ? c.project : `${c.project} (root ${c.root})`;
  const p = byProject.get(key) ?? { prompts: 0, mustSee: 0, partial: 0, nothing: 0, zh: 0, en: 0, mixed: 0 };
  for (const t of [p, total]) {
    t.prompts += 1;
    if (c.must_see.length > 0) t.mustSee += 1;
    else if (c.relevant.length > 0) t.partial += 1;
    else t.nothing += 1;
    t[language(c.prompt)] += 1;
  }
  byProject.set(key, p);
}
const row = (name, p) =>
  `| ${name} | ${p.prompts} | ${p.mustSee} | ${p.partial} | ${p.nothing} | ${p.zh} / ${p.en} / ${p.mixed} |`;
process.stdout.write(
  [
    '| project (root) | prompts | with must-see | relevant only | nothing relevant | zh / en / mixed |',
    '|---|---|---|---|---|---|',
    ...[...byProject].map(([name, p]) => row(name, p)),
    row('**total**', total),
  ].join('\n') + '\n',
);
process.stdout.write(`${cases.length} prompts, ${problems.length} problem(s)\n`);
if (problems.length > 0) {
  process.stderr.write(problems.join('\n') + '\n');
  process.exitCode = 1;
}
