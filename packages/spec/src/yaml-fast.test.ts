import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { simpleYamlMapping } from './yaml-fast.js';

/** What the slow path reads: `yaml` failsafe `toJS`, or 'error' when it reports errors. */
function viaYaml(text: string): unknown {
  const doc = parseDocument(text, { schema: 'failsafe', uniqueKeys: false });
  if (doc.errors.length > 0) return 'error';
  try {
    return doc.toJS();
  } catch {
    return 'error';
  }
}

/** Deep equality that also compares key order and prototypes. */
function expectSame(fast: unknown, slow: unknown): void {
  expect(JSON.stringify(fast)).toBe(JSON.stringify(slow));
  expect(Object.getPrototypeOf(fast)).toBe(Object.getPrototypeOf(slow));
  expect(Object.keys(fast as object)).toEqual(Object.keys(slow as object));
}

const VALUES = [
  'Hello',
  'hello   world  ',
  '"Quoted: yes"',
  '"esc \\" q \\\\ \\/ \\n \\t \\u00e9 \\u0041"',
  '"\\ud83d\\ude00"',
  '"\\x41"',
  '"a" trailing',
  '"unterminated',
  "'it''s'",
  "'a''",
  "''",
  '""',
  'x # comment',
  'a#b',
  'a: b',
  'x:y',
  'x:',
  '-dash',
  '- item',
  '?q',
  ':colon',
  '...',
  '@at',
  '%pct',
  '`bt`',
  '&anchor x',
  '*alias',
  '!tag x',
  '|',
  '>',
  '{a: b}',
  "[a, b, \"c d\", 'e''f']",
  '[a,b]',
  '[]',
  '[ ]',
  '[a, b,]',
  '[a,, b]',
  '[a, [b]]',
  '[a: b]',
  '["x, y"]',
  '["x\\"y"]',
  '[e  f]',
  '[-x]',
  'null',
  '~',
  'true',
  '1.10',
  '2026-04-18',
  '2026-06-01T10:00:00.000Z',
  '中文标题：冒号',
  'it\'s "quoted" inside',
  'a[b]{c},d',
  '\u00a0nbsp\u00a0',
  '\u3000ideographic\u3000',
  'a\u2028b',
  'a\u0085b',
  'tab\there',
  'emoji 😀',
  '',
  ' ',
];
const LINES = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(
        'title',
        'type',
        'k',
        'k.e-y_1',
        '_x',
        'constructor',
        '__proto__',
        '1a',
        'null',
        'true',
        'Y',
        'a-',
      ),
      fc.constantFrom(...VALUES),
    )
    .map(([k, v]) => `${k}: ${v}`),
  fc.constantFrom(...VALUES).map((v) => `  - ${v}`),
  fc.constantFrom(...VALUES).map((v) => `- ${v}`),
  fc.constantFrom(
    'keywords:',
    'keywords:   ',
    'tags:',
    '  -',
    '  -  c  ',
    '    - deeper',
    '   - odd',
    '-x',
    '# comment',
    '',
    '   ',
    'nested:',
    '  a: b',
    '  continued',
    'key:value',
    'key : v',
    '"quoted key": v',
    '...',
    '--- x',
    'title: dup',
  ),
  fc.string({ maxLength: 10 }),
);
const DOC = fc
  .tuple(fc.array(LINES, { maxLength: 8 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([lines, eol, final]) => lines.join(eol) + (final && lines.length ? eol : ''));

/** Scalars built from the characters YAML treats specially, so most documents reach the fast path. */
const CHARS = [...'ab Z9 :#,[]{}\'"\\-?!&*|>%@`./u00e9', '\u00a0', '中', '：', '\r', '\n', '\t'];
const SCALAR = fc.array(fc.constantFrom(...CHARS), { maxLength: 12 }).map((cs) => cs.join(''));
const QUOTED = fc.oneof(
  SCALAR.map((v) => `"${v}"`),
  SCALAR.map((v) => `'${v}'`),
  SCALAR.map((v) => JSON.stringify(v)),
  fc
    .array(
      fc.oneof(
        SCALAR,
        SCALAR.map((v) => JSON.stringify(v)),
      ),
      { maxLength: 4 },
    )
    .map((vs) => `[${vs.join(', ')}]`),
);
const VALUE = fc.oneof(SCALAR, QUOTED, fc.constantFrom(...VALUES));
const SIMPLE_LINE = fc.oneof(
  fc
    .tuple(fc.constantFrom('title', 'type', 'keywords', 'tags', 'created', 'a.b', 'x-y', 'null', 'on', '_'), VALUE)
    .map(([k, v]) => `${k}: ${v}`),
  fc.constantFrom('keywords:', 'tags:'),
  fc.tuple(fc.constantFrom('', '  ', '    '), VALUE).map(([i, v]) => `${i}- ${v}`),
);
const SIMPLE_DOC = fc
  .tuple(fc.array(SIMPLE_LINE, { minLength: 1, maxLength: 6 }), fc.constantFrom('\n', '\r\n'))
  .map(([lines, eol]) => lines.join(eol) + eol);

describe('simpleYamlMapping', () => {
  it('reads exactly what yaml (failsafe) reads for typical frontmatter, or declines', () => {
    fc.assert(
      fc.property(SIMPLE_DOC, (text) => {
        const fast = simpleYamlMapping(text);
        if (fast === undefined) return;
        expectSame(fast, viaYaml(text));
      }),
      { numRuns: 20000 },
    );
  });

  it('reads exactly what yaml (failsafe) reads, or declines', () => {
    fc.assert(
      fc.property(DOC, (text) => {
        const fast = simpleYamlMapping(text);
        if (fast === undefined) return;
        expectSame(fast, viaYaml(text));
      }),
      { numRuns: 20000 },
    );
  });

  it('takes the fast path for the frontmatter maestro and maestro-flow write', () => {
    const text = [
      'title: "Retry with backoff #12"',
      'description: Pi 扩展 API 能力上限与实现速查（输入框背景/流式展示）',
      'type: tip',
      'created: 2026-07-25T04:02:25.204Z',
      'keywords:',
      '  - retry',
      '  - "a, b"',
      'tags: [npm,publish, release]',
      'sourceRef: "session:2e68bf22"',
      'empty:',
      'status: active',
      '',
    ].join('\r\n');
    const fast = simpleYamlMapping(text);
    expect(fast).toEqual({
      title: 'Retry with backoff #12',
      description: 'Pi 扩展 API 能力上限与实现速查（输入框背景/流式展示）',
      type: 'tip',
      created: '2026-07-25T04:02:25.204Z',
      keywords: ['retry', 'a, b'],
      tags: ['npm', 'publish', 'release'],
      sourceRef: 'session:2e68bf22',
      empty: '',
      status: 'active',
    });
    expectSame(fast, viaYaml(text));
  });

  it('declines what it does not model', () => {
    for (const text of ['a: 1\na: 2', '# c\na: b', 'a: b # c', 'a:\n  b: c', 'a: &x y', 'a: |\n  x', 'a: "\\x41"'])
      expect(simpleYamlMapping(text)).toBeUndefined();
    // yaml rejects implicit keys over 1024 characters.
    expect(simpleYamlMapping(`${'k'.repeat(1024)}: v\n`)).toEqual({ ['k'.repeat(1024)]: 'v' });
    expect(viaYaml(`${'k'.repeat(1025)}: v\n`)).toBe('error');
    expect(simpleYamlMapping(`${'k'.repeat(1025)}: v\n`)).toBeUndefined();
  });
});
