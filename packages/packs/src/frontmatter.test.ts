import { parseFrontmatterYaml, splitFrontmatter } from '@maestro/packs';
import { describe, expect, it } from 'vitest';

const parse = (text: string) => {
  const split = splitFrontmatter(text, 'KNOWLEDGE.md');
  if ('code' in split) throw new Error(split.message);
  return parseFrontmatterYaml(split.yaml, split.startLine, 'KNOWLEDGE.md');
};

describe('frontmatter', () => {
  it('reads a file saved with BOM and CRLF', () => {
    const r = parse(
      '\uFEFF---\r\nname: acme\r\ndescription: Acme facts\r\ntype: brand-product\r\nstatus: ready\r\n---\r\n# Body\r\n',
    );
    expect(r.issues).toEqual([]);
    expect(r.data).toEqual({ name: 'acme', description: 'Acme facts', type: 'brand-product', status: 'ready' });
  });

  it('keeps dates and versions as the strings the author wrote', () => {
    const r = parse('---\nupdated: 2026-04-18\nversion: 2025.2\nother: 1.10\nflag: true\n---\n');
    expect(r.data).toEqual({ updated: '2026-04-18', version: '2025.2', other: '1.10', flag: 'true' });
  });

  it('recovers an unquoted ": " in a description with a warning naming line and field', () => {
    const r = parse(
      '---\nname: sales-faq\ndescription: Sales answers. Use when: a customer asks about pricing\ntype: domain-reference\nstatus: ready\n---\n',
    );
    expect(r.data?.description).toBe('Sales answers. Use when: a customer asks about pricing');
    expect(r.data?.type).toBe('domain-reference');
    expect(r.issues).toHaveLength(1);
    expect(r.issues[0]).toMatchObject({
      severity: 'warning',
      code: 'PACK_YAML_UNQUOTED_COLON',
      line: 3,
      field: 'description',
    });
  });

  it('recovers tabs used as indentation with a warning', () => {
    const r = parse('---\nname: a\nruntime:\n\tmode: persona\n---\n');
    expect(r.data).toEqual({ name: 'a', runtime: { mode: 'persona' } });
    expect(r.issues[0]).toMatchObject({ severity: 'warning', code: 'PACK_YAML_TABS' });
  });

  it('reports an unclosed quote as an error with its line, never a silent drop', () => {
    const r = parse('---\nname: a\ndescription: "unclosed\ntype: x\n---\n');
    expect(r.data).toBeNull();
    expect(r.issues[0]).toMatchObject({ severity: 'error', code: 'PACK_INVALID_YAML', file: 'KNOWLEDGE.md' });
    expect(r.issues[0].message).toMatch(/^Invalid YAML in frontmatter: /);
    expect(r.issues[0].line).toBeGreaterThanOrEqual(3);
  });

  it('reports duplicate keys and non-mapping frontmatter', () => {
    expect(parse('---\nname: a\nname: b\n---\n').issues[0].code).toBe('PACK_INVALID_YAML');
    expect(parse('---\n- a\n- b\n---\n').issues[0].code).toBe('PACK_FRONTMATTER_NOT_MAPPING');
  });

  it('requires an opening and a closing fence', () => {
    expect(splitFrontmatter('name: a\n', 'KNOWLEDGE.md')).toMatchObject({ code: 'PACK_NO_FRONTMATTER', line: 1 });
    expect(splitFrontmatter('---\nname: a\n', 'KNOWLEDGE.md')).toMatchObject({ code: 'PACK_FRONTMATTER_UNCLOSED' });
    expect(splitFrontmatter('---\nname: a\n', 'KNOWLEDGE.md', true)).toMatchObject({
      code: 'PACK_FRONTMATTER_TOO_LARGE',
    });
  });
});
