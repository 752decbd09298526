import { describe, expect, it } from 'vitest';
import { knowhowEntry, knowhowIdFor, parseKnowhowFile, renderKnowhowFile, setKnowhowFields } from './index.js';

const view = (text: string, file = 'knowhow/TIP-20260418-x.md') => {
  const parsed = parseKnowhowFile(text, `.workflow/${file}`);
  return { entry: knowhowEntry(parsed.value, file, parsed.issues), issues: parsed.issues, model: parsed.value };
};

describe('knowhow files', () => {
  it('keeps dates and version-like values as strings', () => {
    const { entry, model } = view(
      '---\ntitle: Tip\ntype: tip\ncreated: 2026-04-18\nversion: 1.10\ntool: true\n---\n\nBody\n',
    );
    expect(model.data).toMatchObject({ created: '2026-04-18', version: '1.10', tool: 'true' });
    expect(entry).toMatchObject({
      id: 'knowhow-tip-20260418-x',
      title: 'Tip',
      type: 'tip',
      date: '2026-04-18',
      content: 'Body',
    });
  });

  it('reads a document without frontmatter with a warning', () => {
    const { entry, issues } = view('# Heading here\n\ntext\n', 'knowhow/KNW-x.md');
    expect(entry.title).toBe('Heading here');
    expect(issues.map((i) => i.code)).toEqual(['KNOWHOW_NO_FRONTMATTER']);
  });

  it('reports frontmatter yaml cannot build (an alias without anchor) as an issue, not a crash', () => {
    const { entry, issues, model } = view('---\ntitle: *ali\ntype: tip\n---\n# Heading\n');
    expect(model.data).toBeNull();
    expect(entry.title).toBe('Heading');
    expect(issues).toMatchObject([
      { code: 'FRONTMATTER_INVALID', line: 2, file: '.workflow/knowhow/TIP-20260418-x.md' },
    ]);
  });

  it('ids are knowhow-<slug of the stem>, without truncation', () => {
    const stem = `KNW-20260806-114636-${'a'.repeat(80)}`;
    expect(knowhowIdFor(`knowhow/${stem}.md`)).toBe(`knowhow-${stem.toLowerCase()}`);
  });

  it('renders a new document that parses back to the same fields', () => {
    const text = renderKnowhowFile({
      title: 'Deploy: step "one"',
      type: 'recipe',
      body: 'line\r\nline2\n\n\n',
      created: '2026-04-18T10:00:00.000Z',
      keywords: ['deploy', 'ci'],
      explicitId: 'rcp-20260418-deploy',
    });
    expect(text.endsWith('line\nline2\n')).toBe(true);
    const { entry, model } = view(text, 'knowhow/RCP-20260418-deploy.md');
    expect(model.data).toMatchObject({ title: 'Deploy: step "one"', keywords: ['deploy', 'ci'], tags: [] });
    expect(entry.explicitId).toBe('rcp-20260418-deploy');
  });

  it('setKnowhowFields rewrites only the changed keys and keeps order, unknown keys and CRLF', () => {
    const text =
      '---\r\ntitle: A\r\ncustom: keep me # comment\r\nstatus: active\r\nlist:\r\n- a\r\n- b\r\n\r\n---\r\nbody\r\n';
    const out = setKnowhowFields(
      text,
      { status: 'deprecated', supersededBy: 'knowhow-b', list: null, supersedes: ['x', 'y'] },
      { inlineLists: true },
    );
    expect(out).toBe(
      '---\r\ntitle: A\r\ncustom: keep me # comment\r\nstatus: deprecated\r\n\r\nsupersededBy: knowhow-b\r\nsupersedes: ["x", "y"]\r\n---\r\nbody\r\n',
    );
    expect(setKnowhowFields('body only\n', { status: 'deprecated' })).toBe('---\nstatus: deprecated\n---\nbody only\n');
  });
});
