import { describe, expect, it } from 'vitest';
import {
  appendSpecEntry,
  categoryFileFor,
  findDuplicateTitle,
  parseSpecFile,
  renderSpecEntry,
  setSpecEntryAttributes,
  specFileEntries,
  specFileIds,
} from './index.js';

const entry = (text: string, file = 'specs/coding-conventions.md') =>
  specFileEntries(parseSpecFile(text, file).value, file, file, []);

describe('renderSpecEntry', () => {
  it('writes attributes in writer order, escapes values and content', () => {
    const text = renderSpecEntry({
      category: 'coding',
      keywords: ['a', 'b'],
      date: '2026-05-01',
      sid: 'S-20260501-aaaa',
      title: 'Use "x" & <y>',
      source: 'main@abc',
      supersedes: ['S-1', 'S-2'],
      status: 'deprecated',
      content: 'inject </spec-entry> and <spec-entry category="x">',
    });
    expect(text.split('\n')[0]).toBe(
      '<spec-entry category="coding" keywords="a,b" date="2026-05-01" sid="S-20260501-aaaa" title="Use &quot;x&quot; &amp; &lt;y&gt;" source="main@abc" supersedes="S-1,S-2" status="deprecated">',
    );
    const [e] = entry(text);
    expect(e).toMatchObject({ title: 'Use "x" & <y>', status: 'deprecated', supersedes: ['S-1', 'S-2'] });
    expect(e.content).toBe('inject </spec-entry> and <spec-entry category="x">');
    expect(entry(text)).toHaveLength(1);
  });
});

describe('appendSpecEntry', () => {
  const block = renderSpecEntry({
    category: 'coding',
    keywords: ['k'],
    date: '2026-05-01',
    title: 'New',
    content: 'c',
  });
  it('adds a blank line and a final newline, keeping CRLF', () => {
    const crlf = '# T\r\n\r\n## Entries';
    const out = appendSpecEntry(crlf, block);
    expect(out.startsWith(`${crlf}\r\n\r\n<spec-entry`)).toBe(true);
    expect(out.endsWith('</spec-entry>\r\n')).toBe(true);
    expect(out.replace(/\r\n/g, '')).not.toMatch(/\n/);
  });
  it('appends to an empty file without leading blank lines', () => {
    expect(appendSpecEntry('', block)).toBe(`${block}\n`);
  });
});

describe('setSpecEntryAttributes', () => {
  const base =
    '---\r\ncategory: coding\r\n---\r\n<spec-entry\r\n  category="coding"\r\n  keywords="a"\r\n  date="2026-05-01"\r\n  sid="S-20260501-aaaa"\r\n  title="One">\r\n### One\r\nbody\r\n</spec-entry>\r\n' +
    '<spec-entry category="coding" keywords="b" date="2026-05-02" sid="S-20260502-bbbb" weird="kept">\n### Two\nx\n</spec-entry>';
  it('edits one entry through the model and keeps every other byte', () => {
    const out = setSpecEntryAttributes(
      base,
      'S-20260501-aaaa',
      { status: 'deprecated', 'superseded-by': 'S-2' },
      'specs/coding-conventions.md',
    );
    expect(out).toBe(
      base.replace('  title="One">', '  title="One"\r\n  superseded-by="S-2"\r\n  status="deprecated">'),
    );
    const again = setSpecEntryAttributes(
      out,
      'S-20260502-bbbb',
      { sid: 'S-20260502-cccc', weird: null, title: 'a"b' },
      'specs/coding-conventions.md',
    );
    expect(again).toContain(
      '<spec-entry category="coding" keywords="b" date="2026-05-02" sid="S-20260502-cccc" title="a&quot;b">',
    );
    expect(again.slice(0, out.indexOf('<spec-entry category'))).toBe(out.slice(0, out.indexOf('<spec-entry category')));
  });
  it('inserts a new attribute at its writer position', () => {
    const text = '<spec-entry category="ui" keywords="a" date="2026-05-01" title="T">\n### T\nx\n</spec-entry>\n';
    const [id] = specFileIds(text, 'specs/ui-conventions.md');
    const out = setSpecEntryAttributes(text, id, { sid: 'S-20260501-zzzz' }, 'specs/ui-conventions.md');
    expect(out).toContain('date="2026-05-01" sid="S-20260501-zzzz" title="T"');
  });
  it('refuses unknown ids', () => {
    expect(() => setSpecEntryAttributes(base, 'S-nope', { status: 'deprecated' }, 'specs/x.md')).toThrow(
      /no spec entry/,
    );
  });
});

describe('helpers', () => {
  it('categoryFileFor maps unknown categories to learnings.md', () => {
    expect(categoryFileFor('arch')).toBe('architecture-constraints.md');
    expect(categoryFileFor('quality')).toBe('learnings.md');
  });
  it('findDuplicateTitle is case-insensitive and counts deprecated entries', () => {
    const text =
      '<spec-entry category="ui" keywords="a" date="2026-05-01" status="deprecated">\n### Foo\nx\n</spec-entry>\n';
    expect(findDuplicateTitle(text, 'specs/ui-conventions.md', ' foo ')?.title).toBe('Foo');
    expect(findDuplicateTitle(text, 'specs/ui-conventions.md', 'bar')).toBeNull();
  });
});
