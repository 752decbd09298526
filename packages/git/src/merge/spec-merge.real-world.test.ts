import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseSpecFile, renderEntryNode } from '@maestro/spec';
import { expect, test } from 'vitest';
import { mergeSpecFile } from './spec-merge.js';
import type { MergeText } from './text.js';

// maestro-flow users' spec files (read-only; never edited in place).
const CORPUS = resolve(import.meta.dirname, '../../../../../shared/corpora/real-world');
const noProse: MergeText = () => {
  throw new Error('unexpected prose merge');
};

function specFiles(): string[] {
  const out: string[] = [];
  for (const p of readdirSync(CORPUS, { withFileTypes: true })) {
    if (!p.isDirectory()) continue;
    const dir = join(CORPUS, p.name, '.workflow/specs');
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.md'));
    } catch {
      continue;
    }
    out.push(...names.map((n) => join(dir, n)));
  }
  return out;
}

test('real spec files: an identity merge is byte for byte; one side deleting, the other appending, both apply', () => {
  const files = specFiles();
  expect(files.length).toBeGreaterThan(50);
  for (const file of files) {
    const t = readFileSync(file, 'utf8');
    const same = mergeSpecFile(t, t, t, file, { mergeText: noProse });
    expect('text' in same && same.text, file).toBe(t);
    const entries = parseSpecFile(t, file).value.segments.filter((s) => s.kind === 'entry');
    if (entries.length < 2) continue;
    const first = renderEntryNode(entries[0]);
    const ours = t.replace(first, '');
    const added = '<spec-entry sid="S-29990101-zzzz" title="New">\n\nnew\n\n</spec-entry>';
    const theirs = `${t}\n${added}\n`;
    const r = mergeSpecFile(t, ours, theirs, file, { mergeText: noProse });
    expect('text' in r && r.conflicts, file).toEqual([]);
    expect('text' in r && r.text, file).toBe(`${ours}\n${added}\n`);
  }
});
