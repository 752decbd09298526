import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseKnowhowFile, parseSpecFile, serializeKnowhowFile, serializeSpecFile, specFileEntries } from './index.js';

/** Text built from the fragments that confuse spec parsers, mixed with arbitrary strings. */
const fragment = fc.oneof(
  fc.constantFrom(
    '<spec-entry',
    '<spec-entry ',
    '<spec-entry>',
    '</spec-entry>',
    '</spec-entry',
    '&lt;spec-entry',
    '>',
    '"',
    "'",
    '\\"',
    '=',
    ' category="coding"',
    ' title="a &amp; b"',
    ' keywords=a,b',
    '\n',
    '\r\n',
    '\n\n',
    '\uFEFF',
    '---\n',
    '---\r\n',
    'title: x\n',
    '### ',
    '### [coding] [2026-01-01] ',
    '### [2026-01-01] ',
    '## ',
    '&#x41;',
    '&bogus;',
    '中文',
  ),
  fc.string({ maxLength: 12 }),
);
const text = fc.array(fragment, { maxLength: 60 }).map((parts) => parts.join(''));

describe('parser properties', () => {
  it('never throws and parse → serialise is the identity (spec)', () => {
    fc.assert(
      fc.property(text, (t) => {
        const parsed = parseSpecFile(t, 'specs/x.md');
        specFileEntries(parsed.value, 'specs/x.md', 'specs/x.md', parsed.issues);
        expect(serializeSpecFile(parsed.value)).toBe(t);
      }),
      { numRuns: 3000 },
    );
  });

  it('never throws and parse → serialise is the identity (knowhow)', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(serializeKnowhowFile(parseKnowhowFile(t, 'knowhow/x.md').value)).toBe(t);
      }),
      { numRuns: 1000 },
    );
  });
});
