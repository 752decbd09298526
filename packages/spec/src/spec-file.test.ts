import { describe, expect, it } from 'vitest';
import { loadCorpus, parseSpecFile, serializeSpecFile, specFileEntries } from './index.js';

function entriesOf(text: string, file = 'specs/learnings.md') {
  const parsed = parseSpecFile(text, `.workflow/${file}`);
  const issues = [...parsed.issues];
  const entries = specFileEntries(parsed.value, file, `.workflow/${file}`, issues);
  expect(serializeSpecFile(parsed.value)).toBe(text);
  return { entries, issues, model: parsed.value };
}

const FM = '---\ntitle: "Learnings"\ncategory: learning\n---\n\n# Learnings\n\n## Entries\n\n';

describe('parseSpecFile', () => {
  it('reads a writer entry: attributes, heading, content', () => {
    const { entries, issues } = entriesOf(
      `${FM}<spec-entry category="coding" keywords="a, B,c" date="2026-05-01" sid="S-20260501-ab12" title="Use &lt;T&gt; &amp; &quot;q&quot;">\n\n### Use <T>\n\nBody line\n\n</spec-entry>\n`,
    );
    expect(issues).toEqual([]);
    expect(entries).toHaveLength(1);
    const e = entries[0];
    expect(e).toMatchObject({ id: 'S-20260501-ab12', hasSid: true, title: 'Use <T> & "q"', content: 'Body line' });
    expect(e).toMatchObject({
      category: 'coding',
      keywords: ['a', 'b', 'c'],
      date: '2026-05-01',
      line: 10,
      status: 'active',
    });
  });

  it('keeps multi-line opening tags, raw > inside quotes and backslash-escaped quotes', () => {
    const text =
      '<spec-entry\n  category="arch"\n  keywords="x"\n  date="2026-05-01"\n  description="a -> b (>=3)"\n>\n### T1\nbody\n</spec-entry>\n' +
      '<spec-entry category="arch" keywords="k" date="2026-05-02" description="call getattr(x, \\"_p\\") now" source="s">\nbody2\n</spec-entry>';
    const { entries, issues } = entriesOf(text, 'specs/architecture-constraints.md');
    expect(issues).toEqual([]);
    expect(entries.map((e) => e.description)).toEqual(['a -> b (>=3)', 'call getattr(x, "_p") now']);
    expect(entries[1].source).toBe('s');
    expect(entries[0].title).toBe('T1');
    expect(entries[1]).toMatchObject({ title: 'body2', titleSource: 'content', hasSid: false });
    expect(entries[1].id).toMatch(/^D-[0-9a-f]{16}$/);
  });

  it('keeps unknown attributes and reads superseded_by as an alias with a warning', () => {
    const { entries, issues } = entriesOf(
      '<spec-entry id="INS-1" category="learning" keywords="" date="2026-05-01" sourceRef="a/b" superseded_by="ISS-1">\nx\n</spec-entry>',
    );
    expect(entries[0].attributes).toMatchObject({ id: 'INS-1', sourceRef: 'a/b' });
    expect(entries[0].supersededBy).toBe('ISS-1');
    expect(issues.map((i) => i.code)).toEqual(['SPEC_ATTRIBUTE_ALIAS']);
  });

  it('handles CRLF, BOM and no final newline byte for byte', () => {
    const text = `\uFEFF---\r\ncategory: debug\r\n---\r\n<spec-entry category="debug" keywords="a" date="2026-05-01">\r\n\r\n### Crlf\r\n\r\nline1\r\nline2\r\n\r\n</spec-entry>`;
    const { entries, model } = entriesOf(text, 'specs/debug-notes.md');
    expect(model.bom).toBe(true);
    expect(model.eol).toBe('\r\n');
    expect(entries[0]).toMatchObject({ title: 'Crlf', content: 'line1\nline2', category: 'debug' });
  });

  it('reads legacy ### [category] [date] title entries', () => {
    const text = `${FM}### [coding] [2026-01-02 10:00] Old rule\n\nBody of old rule.\n\n### [2026-01-03] Dated only\n\nMore.\n\n## Other section\n\ntext\n`;
    const { entries } = entriesOf(text);
    expect(entries.map((e) => [e.title, e.category, e.date, e.legacy, e.content])).toEqual([
      ['Old rule', 'coding', '2026-01-02', true, 'Body of old rule.'],
      ['Dated only', 'learning', '2026-01-03', true, 'More.'],
    ]);
  });

  it('reports malformed constructs with line and column and parses the rest', () => {
    const text = [
      'intro `<spec-entry>` mention',
      '<spec-entry category="coding" keywords="a" date="2026-05-01" title="unterminated',
      '',
      '</spec-entry>',
      '<spec-entry category="nope" keywords="a" date="bad">',
      '### Unclosed',
      'text',
      '<spec-entry category="ui" keywords="a" date="2026-05-01">',
      '### Fine',
      '</spec-entry>',
    ].join('\n');
    const { entries, issues } = entriesOf(text);
    expect(entries.map((e) => e.title)).toEqual(['Unclosed', 'Fine']);
    const byCode = Object.fromEntries(issues.map((i) => [i.code, [i.line, i.column]]));
    expect(byCode).toMatchObject({
      SPEC_TAG_MALFORMED: [2, 1],
      SPEC_STRAY_CLOSE: [4, 1],
      SPEC_ENTRY_UNCLOSED: [5, 1],
      SPEC_CATEGORY_INVALID: [5, 1],
      SPEC_DATE_INVALID: [5, 1],
    });
    expect(issues.every((i) => i.file === '.workflow/specs/learnings.md' && i.hint)).toBe(true);
  });

  it('reports invalid frontmatter YAML with its line', () => {
    const { issues } = entriesOf('---\ntitle: x\nkeywords: [a,\n---\nbody\n');
    expect(issues[0]).toMatchObject({ code: 'FRONTMATTER_INVALID', line: expect.any(Number) });
  });

  it('derived ids do not move when other entries are inserted or removed', () => {
    const a = '<spec-entry category="ui" keywords="a" date="2026-05-01">\n### A\nalpha\n</spec-entry>\n';
    const b = '<spec-entry category="ui" keywords="b" date="2026-05-01">\n### B\nbeta\n</spec-entry>\n';
    const one = entriesOf(b, 'specs/ui-conventions.md').entries[0].id;
    const two = entriesOf(a + b, 'specs/ui-conventions.md').entries[1].id;
    expect(two).toBe(one);
    const twins = entriesOf(b + b, 'specs/ui-conventions.md').entries.map((e) => e.id);
    expect(twins).toEqual([one, `${one}-2`]);
  });

  it('loadCorpus on a missing .workflow returns an empty corpus and writes nothing', () => {
    const c = loadCorpus({ specs: '/nonexistent/x/specs', knowhow: '/nonexistent/x/knowhow' } as never);
    expect(c.entries).toEqual([]);
  });
});
