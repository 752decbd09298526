import { describe, expect, it } from 'vitest';
import { mergeSpecFile } from './spec-merge.js';
import type { MergeText } from './text.js';

/** A text merge that refuses: any prose merge a test did not expect fails it. */
const noProse: MergeText = () => {
  throw new Error('unexpected prose merge');
};
const ctx = { mergeText: noProse };

const tag = (sid: string, body: string) => `<spec-entry sid="${sid}" title="${sid}">\n\n${body}\n\n</spec-entry>`;
const file = (...entries: string[]) => `\uFEFF# Rules\n\n${entries.join('\n\n')}\n`;

describe('mergeSpecFile', () => {
  it('places an entry theirs added in the middle after its predecessor in theirs', () => {
    const [a, b, c, n] = [tag('S-1', 'a'), tag('S-2', 'b'), tag('S-3', 'c'), tag('S-9', 'new')];
    const r = mergeSpecFile(file(a, b, c), file(a, b, c, tag('S-4', 'ours')), file(a, n, b, c), 'x.md', ctx);
    expect(r).toMatchObject({ conflicts: [], counts: { ours: 1, theirs: 1, deleted: 0 } });
    expect('text' in r && r.text).toBe(file(a, n, b, c, tag('S-4', 'ours')));
  });

  it('keeps the BOM and untouched entries byte for byte, odd spacing included', () => {
    const odd = '<spec-entry   sid="S-1"\n   title="t" >\r\nbody with  spaces\n</spec-entry >';
    const base = file(odd, tag('S-2', 'b'));
    const r = mergeSpecFile(base, file(odd, tag('S-2', 'b2')), base, 'x.md', ctx);
    expect('text' in r && r.text).toBe(file(odd, tag('S-2', 'b2')));
  });

  it('keys legacy entries by their heading, and entries without sid by title', () => {
    const legacy = (body: string) => `### [coding] [2026-01-01] Old rule\n\n${body}\n`;
    const base = `# Rules\n\n${legacy('one')}\n<spec-entry title="No sid">\n\nx\n\n</spec-entry>\n`;
    const ours = `# Rules\n\n${legacy('one, edited')}\n<spec-entry title="No sid">\n\nx\n\n</spec-entry>\n`;
    const theirs = `# Rules\n\n${legacy('one')}\n<spec-entry title="No sid">\n\ny\n\n</spec-entry>\n`;
    const r = mergeSpecFile(base, ours, theirs, 'x.md', ctx);
    expect('text' in r && r.text).toBe(
      `# Rules\n\n${legacy('one, edited')}\n<spec-entry title="No sid">\n\ny\n\n</spec-entry>\n`,
    );
  });

  it('refuses (for the text fallback) a side with a duplicated sid or an unclosed entry', () => {
    const a = tag('S-1', 'a');
    expect(mergeSpecFile(file(a), file(a, a), file(a), 'x.md', ctx)).toEqual({
      fallback: 'our version holds S-1 twice',
    });
    const r = mergeSpecFile(file(a), file(a), '<spec-entry sid="S-1">\nno close\n', 'x.md', ctx);
    expect('fallback' in r && r.fallback).toMatch(
      /^their version does not parse \(line 1: <spec-entry> has no closing/,
    );
  });

  it('hands prose both sides changed to the text merge and counts its conflicts', () => {
    const a = tag('S-1', 'a');
    const calls: string[][] = [];
    const mergeText: MergeText = (o, b, t) => {
      calls.push([o, b, t]);
      return { text: '<<merged>>', conflicts: 1 };
    };
    const r = mergeSpecFile(`# A\n\n${a}\n`, `# B\n\n${a}\n`, `# C\n\n${a}\n`, 'x.md', { mergeText });
    expect(calls).toEqual([['# B\n\n', '# A\n\n', '# C\n\n']]);
    expect(r).toMatchObject({ text: `<<merged>>${a}\n`, conflicts: [{ key: 'prose', kind: 'prose' }] });
  });

  it('keeps prose the other side edited before an entry one side deleted', () => {
    const [a, b] = [tag('S-1', 'a'), tag('S-2', 'b')];
    const base = `# R\n\n${a}\n\n## Old section\n\n${b}\n`;
    const ours = `# R\n\n${a}\n`;
    const theirs = `# R\n\n${a}\n\n## Renamed section\n\n${b}\n`;
    const r = mergeSpecFile(base, ours, theirs, 'x.md', ctx);
    expect(r).toMatchObject({ conflicts: [], counts: { deleted: 1 } });
    expect('text' in r && r.text).toBe(`# R\n\n${a}\n\n## Renamed section\n\n\n`);
  });
  it('puts a blank line between entries both sides appended to a file that had none', () => {
    const [a, b] = [tag('S-1', 'ours'), tag('S-2', 'theirs')];
    const base = '# Rules\n\n## Entries\n';
    const r = mergeSpecFile(base, `${base}\n${a}\n`, `${base}\n${b}\n`, 'x.md', ctx);
    expect(r).toMatchObject({ conflicts: [], counts: { ours: 1, theirs: 1 } });
    expect('text' in r && r.text).toBe(`${base}\n${a}\n\n${b}\n`);
    const crlf = (t: string) => t.replace(/\n/g, '\r\n');
    const w = mergeSpecFile(crlf(base), crlf(`${base}\n${a}\n`), crlf(`${base}\n${b}\n`), 'x.md', ctx);
    expect('text' in w && w.text).toBe(crlf(`${base}\n${a}\n\n${b}\n`));
  });

  it('starts conflict markers on a line of their own after an entry', () => {
    const [a, b1, b2] = [tag('S-1', 'a'), tag('S-2', 'one'), tag('S-2', 'two')];
    const base = '# Rules\n';
    const r = mergeSpecFile(base, `${base}\n${b1}\n`, `${base}\n${a}\n\n${b2}\n`, 'x.md', ctx);
    expect(r).toMatchObject({ conflicts: [{ key: 'S-2', kind: 'both-added' }] });
    const text = 'text' in r ? r.text : '';
    expect(text).toContain(`${a}\n\n<<<<<<< ours\n${b1}\n=======\n${b2}\n>>>>>>> theirs\n`);
  });
});
