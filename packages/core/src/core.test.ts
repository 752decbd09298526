import { describe, expect, it } from 'vitest';
import {
  candidateId,
  canonicalJson,
  contentHash,
  EXIT_BAD_INPUT,
  fixedRuntime,
  hashJson,
  isoDate,
  MaestroError,
  newSid,
  normalizeText,
  parseJsonText,
  SID_PATTERN,
  slugify,
} from './index.js';

describe('normalizeText', () => {
  it('folds width, case and whitespace', () => {
    expect(normalizeText('  ｍａｅｓｔｒｏ①ﬁ \n\t Rule ')).toBe('maestro1fi rule');
  });
  it('gives one content hash for texts that differ only in case, width and spacing', () => {
    expect(contentHash('Use  JWT\nfor auth')).toBe(contentHash('use jwt for auth'));
    expect(contentHash('use jwt')).not.toBe(contentHash('use jwe'));
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"y":2,"z":1}]},"b":1}',
    );
    expect(hashJson({ a: 1, b: 2 })).toBe(hashJson({ b: 2, a: 1 }));
  });
});

describe('ids', () => {
  it('candidate id depends on target and normalised content, not on spacing', () => {
    const a = candidateId('spec', 'Always  use UTC');
    expect(a).toMatch(/^KDC-[a-f0-9]{16}$/);
    expect(candidateId('spec', 'always use utc')).toBe(a);
    expect(candidateId('knowhow', 'always use utc')).not.toBe(a);
  });
  it('new sids avoid the taken set', () => {
    const rt = fixedRuntime('2026-05-01T10:00:00Z', { seed: 7 });
    const first = newSid(rt, new Set());
    expect(first).toMatch(SID_PATTERN);
    expect(first.startsWith('S-20260501-')).toBe(true);
    const again = newSid(fixedRuntime('2026-05-01T10:00:00Z', { seed: 7 }), new Set([first]));
    expect(again).not.toBe(first);
  });
  it('slugify keeps ascii words', () => {
    expect(slugify('Use JWT — for Auth!')).toBe('use-jwt-for-auth');
    expect(slugify('中文')).toBe('');
  });
  it('isoDate is UTC', () => {
    expect(isoDate(new Date('2026-01-02T23:30:00-05:00'))).toBe('2026-01-03');
  });
});

describe('parseJsonText', () => {
  it('names file, line and column of a syntax error', () => {
    try {
      parseJsonText('{\n  "a": 1,\n  oops\n}', 'x.json');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(MaestroError);
      const e = err as MaestroError;
      expect(e.exitCode).toBe(EXIT_BAD_INPUT);
      expect(e.message).toMatch(/^x\.json:3:\d+: invalid JSON/);
    }
  });
  it('keeps the message on one line', () => {
    try {
      parseJsonText('{"a": 1,\n "b": [}', 'm.json');
    } catch (err) {
      expect((err as Error).message).not.toContain('\n');
    }
  });
  it('reports an empty file plainly', () => {
    expect(() => parseJsonText('', 'e.json')).toThrow(/the file is empty/);
  });
});

describe('jsonErrorOffset', () => {
  it('finds the first bad character', () => {
    expect(() => parseJsonText('{\n "a": }', 'b.json')).toThrow(/^b\.json:2:7: invalid JSON/);
    expect(() => parseJsonText('[1, 2', 'c.json')).toThrow(/^c\.json:1:6:/);
    expect(() => parseJsonText('{"a": 1} x', 'd.json')).toThrow(/^d\.json:1:10:/);
  });
});

describe('normalizeText fast path', () => {
  it('gives the same result as full NFKC for ASCII and non-ASCII text', () => {
    for (const t of ['Plain ASCII  text\t', 'Ｆｕｌｌ width', 'ﬁne', 'mixed ＡＳＣＩＩ and ascii', '中文　全角空格']) {
      expect(normalizeText(t)).toBe(t.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim());
    }
  });
});
