import { foldForReader } from '@maestro/core';
import { assembleContext, countClosingTags, renderCatalogBlock, renderPackWrapper } from '@maestro/packs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** Pieces a hostile text mixes: every spelling a fold turns into markup, and noise between them. */
const LT = ['<', '\uFF1C', '\uFE64'];
const SLASH = ['/', '\uFF0F', ' /', '\u200B/', '/\u0301'];
const GT = ['>', '\uFF1E', '\uFE65', ' >'];
const fullwidth = (s: string) =>
  [...s].map((c) => (/[a-z]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('');
const NAMES = [
  'knowledge_pack',
  'project_knowledge',
  'pack',
  'system',
  'available_knowledge_packs',
  'knowledge_pack_guide',
];
const nameForms = NAMES.flatMap((n) => [n, n.toUpperCase(), fullwidth(n), n.replace('_', '\u200B_')]);

const confusableTag = fc
  .tuple(
    fc.constantFrom(...LT, '\uFF06lt;', '&lt;', '&#60;', '&#x3C'),
    fc.constantFrom(...SLASH, ''),
    fc.constantFrom(...nameForms),
    fc.constantFrom(...GT),
  )
  .map(([a, b, c, d]) => a + b + c + d);
const hostileText = fc
  .array(
    fc.oneof(
      confusableTag,
      fc.string({ maxLength: 8 }),
      fc.constantFrom(...LT, ...SLASH, ...GT, '&', '\uFF06', '\u200B', ' '),
    ),
    {
      maxLength: 24,
    },
  )
  .map((parts) => parts.join(''));

const wrapperInput = (text: string, warning: string, path: string, name = 'p') => ({
  name,
  status: 'ready' as const,
  trust: 'user-confirmed' as const,
  grounding: 'recommended' as const,
  profile: 'wiki-first' as const,
  mode: 'data' as const,
  language: null,
  warnings: [warning],
  units: [
    { path, text, guide: true },
    { path: 'compiled/a.md', text },
  ],
});

describe('no fold of any text closes a wrapper', () => {
  it('a pack wrapper holds exactly one </knowledge_pack> and no role tag', () => {
    fc.assert(
      fc.property(hostileText, hostileText, hostileText, hostileText, (text, warning, path, name) => {
        const out = renderPackWrapper(wrapperInput(text, warning, path, name));
        expect(countClosingTags(out, 'knowledge_pack')).toBe(1);
        expect(countClosingTags(out, 'system')).toBe(0);
        expect(countClosingTags(out, 'project_knowledge')).toBe(0);
        // The head's attributes stay one line of name="…" pairs once folded.
        expect(foldForReader(out.split('\n')[0])).toMatch(
          /^<knowledge_pack name="[^"\n]*" status="ready" trust="user-confirmed"/,
        );
      }),
      { numRuns: 400 },
    );
  });

  it('the context block of project specs holds exactly one </project_knowledge>', () => {
    fc.assert(
      fc.property(hostileText, hostileText, (text, title) => {
        const out = assembleContext({
          query: 'q',
          specs: [{ id: 'S-1', title, category: 'coding', text }],
          packs: [],
          budget: 100_000,
        });
        const all = out.text;
        expect(countClosingTags(all, 'project_knowledge')).toBe(1);
        expect(countClosingTags(all, 'system')).toBe(0);
        expect(countClosingTags(all, 'knowledge_pack')).toBe(0);
      }),
      { numRuns: 400 },
    );
  });

  it('a catalog holds one </pack> per entry and one </available_knowledge_packs>', () => {
    fc.assert(
      fc.property(hostileText, hostileText, (description, name) => {
        const entry = {
          name,
          description,
          type: 'wiki',
          status: 'ready' as const,
          trust: 'user-confirmed' as const,
          profile: 'wiki-first',
          runtime_mode: 'data',
          primary_document: null,
          location: description,
          activation: 'available' as const,
        };
        const out = renderCatalogBlock([entry, { ...entry, name: 'b' }], 1_000_000).text;
        expect(countClosingTags(out, 'pack')).toBe(2);
        expect(countClosingTags(out, 'available_knowledge_packs')).toBe(1);
        expect(countClosingTags(out, 'system')).toBe(0);
      }),
      { numRuns: 400 },
    );
  });
});
