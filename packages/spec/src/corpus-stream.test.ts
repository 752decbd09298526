import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeSpecRow } from './corpus-store.js';
import { parseCorpusFileRows } from './corpus-stored.js';
import { type EntrySink, streamCorpusFileRows } from './corpus-stream.js';
import type { KnowledgeEntry } from './model.js';

const REAL = resolve(import.meta.dirname, '../../../../shared/corpora/real-world');

/** Every corpus file of the real-world corpora, as (path relative to `.workflow/`, bytes). */
function realFiles(): [string, Buffer][] {
  if (!existsSync(REAL)) return [];
  const out: [string, Buffer][] = [];
  for (const name of readdirSync(REAL).sort()) {
    for (const dir of ['specs', 'knowhow']) {
      const abs = join(REAL, name, '.workflow', dir);
      if (!existsSync(abs)) continue;
      for (const f of readdirSync(abs).sort()) {
        if (f.endsWith('.md')) out.push([`${dir}/${f}`, readFileSync(join(abs, f))]);
      }
    }
  }
  return out;
}

const crafted: [string, Buffer][] = [
  [
    'specs/twins.md',
    Buffer.from(
      '---\ntitle: T\ncategory: arch\n---\n\n# T\n\nA legacy paragraph entry.\n\n' +
        '<spec-entry status="active">Same text</spec-entry>\n\n<spec-entry status="active">Same text</spec-entry>\n\n' +
        '<spec-entry sid="S-20260101-0001" status="deprecated" superseded-by="S-20260101-0002">Old — ünïcode</spec-entry>\n\n' +
        '<spec-entry sid="S-20260101-0002" supersedes="S-20260101-0001">New</spec-entry>\n\n' +
        '<spec-entry status="active">unclosed\n',
    ),
  ],
  [
    'specs/bad-bytes.md',
    Buffer.concat([
      Buffer.from('<spec-entry status="active">a \xff'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(' b</spec-entry>\n'),
    ]),
  ],
  ['specs/empty.md', Buffer.alloc(0)],
  ['specs/unclosed-frontmatter.md', Buffer.from('---\ntitle: x\n\n<spec-entry>a</spec-entry>\n')],
  ['knowhow/note.md', Buffer.from('---\ntitle: Note\ntype: decision\nlinks: [S-20260101-0001]\n---\n\nBody text.\n')],
];

describe('streamCorpusFileRows', () => {
  it('hands the entries of parseCorpusFileRows to the sink, in order, and makes the same spec row', () => {
    const files = [...crafted, ...realFiles()];
    expect(files.length).toBeGreaterThan(crafted.length - 1);
    for (const [path, buf] of files) {
      const whole = parseCorpusFileRows(path, buf, 'hash');
      const seen: KnowledgeEntry[] = [];
      let opened: { text: string; utf8: boolean } | null = null;
      const streamed = streamCorpusFileRows(path, buf, 'hash', (text, utf8): EntrySink => {
        opened = { text, utf8 };
        return (e) => {
          seen.push(e);
        };
      });
      expect(seen, path).toEqual(whole.entries);
      expect(streamed.spec, path).toEqual(encodeSpecRow(whole.rows));
      expect(streamed.spots, path).toEqual(whole.rows.spots);
      expect(streamed.issues, path).toEqual(whole.issues);
      expect(streamed.defaultCategory, path).toBe(whole.rows.defaultCategory);
      expect(opened, path).toEqual({ text: streamed.text, utf8: whole.rows.utf8 });
      if (whole.rows.text !== null) expect(streamed.text, path).toBe(whole.rows.text);
    }
  });
});
