// Builds prompts.jsonl from the hand-written labels in src/*.json: looks every labelled id up in the
// CLI listing of its project and writes file and title beside it. Refuses an unknown id.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listEntries } from './corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));

export function buildLines() {
  const lines = [];
  const problems = [];
  const files = readdirSync(join(here, 'src'))
    .filter((f) => f.endsWith('.json'))
    .sort();
  for (const f of files) {
    const spec = JSON.parse(readFileSync(join(here, 'src', f), 'utf8'));
    const listing = listEntries(spec.project, spec.root);
    const label = (caseId, id) => {
      const e = listing.get(id);
      if (!e) {
        problems.push(`src/${f}: ${caseId}: id ${id} is not listed by the CLI for ${spec.project}`);
        return { id, file: '?', title: '?' };
      }
      return { id, file: e.file, title: e.title };
    };
    for (const c of spec.cases) {
      lines.push({
        id: c.id,
        project: spec.project,
        root: spec.root,
        prompt: c.prompt,
        must_see: c.must_see.map((id) => label(c.id, id)),
        relevant: c.relevant.map((id) => label(c.id, id)),
        note: c.note,
      });
    }
  }
  return { lines, problems };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { lines, problems } = buildLines();
  if (problems.length > 0) {
    for (const p of problems) process.stderr.write(`${p}\n`);
    process.exit(1);
  }
  writeFileSync(join(here, 'prompts.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  process.stdout.write(`wrote ${lines.length} prompts to prompts.jsonl\n`);
}
