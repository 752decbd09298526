// Builds prompts.jsonl from the hand-written label files in src/ (one per project): each labelled id is
// looked up in the CLI listing so the file and title recorded beside it are the ones the CLI reports.
// Usage: node bench/context-prompts/build.mjs
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listEntries } from './corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const lines = [];
const problems = [];

for (const name of readdirSync(join(here, 'src')).sort()) {
  if (!name.endsWith('.json')) continue;
  const spec = JSON.parse(readFileSync(join(here, 'src', name), 'utf8'));
  const entries = listEntries(spec.project, spec.root);
  const ref = (caseId) => (id) => {
    const e = entries.get(id);
    if (e === undefined) problems.push(`src/${name}: ${caseId}: unknown id ${id}`);
    return { id, file: e?.file ?? null, title: e?.title ?? null };
  };
  for (const c of spec.cases) {
    lines.push(
      JSON.stringify({
        id: c.id,
        project: spec.project,
        root: spec.root,
        prompt: c.prompt,
        must_see: c.must_see.map(ref(c.id)),
        relevant: c.relevant.map(ref(c.id)),
        note: c.note,
      }),
    );
  }
}

if (problems.length > 0) {
  process.stderr.write(problems.join('\n') + '\n');
  process.exitCode = 1;
} else {
  writeFileSync(join(here, 'prompts.jsonl'), lines.join('\n') + '\n');
  process.stdout.write(`wrote ${lines.length} prompts to prompts.jsonl\n`);
}
