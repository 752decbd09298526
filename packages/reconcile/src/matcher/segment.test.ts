import { describe, expect, it } from 'vitest';
import { segment, type Unit } from './segment.js';

/** The reading of a text as the matcher sees it: surfaces (numbers and paths as `#` and `/`). */
const surfaces = (text: string) =>
  segment(text).map((u) => (u.kind === 'num' ? '#' : u.kind === 'path' ? '/' : u.surface));

/** Every term a unit can match on, whatever table it came from. */
function termsOf(u: Unit): string[] {
  if (u.kind === 'lex') return u.entry.concept ? [u.entry.concept] : [];
  if (u.kind === 'word') return [u.term];
  if (u.kind === 'han' || u.kind === 'gloss') return [...u.terms];
  return [];
}
const allTerms = (text: string) => new Set(segment(text).flatMap(termsOf));

describe('segmenting mixed Chinese, English and code (jieba for the Chinese runs)', () => {
  it('cuts a Chinese rule into words', () => {
    expect(surfaces('数据库连接池必须设置超时')).toEqual(['数据库', '连接', '池', '必须', '设置', '超时']);
    expect(surfaces('验证通过后自动合并')).toEqual(['验证', '通过', '后', '自动', '合并']);
  });

  it('keeps a name whole, so its neighbours keep their words', () => {
    expect(surfaces('西班牙语文案审校')).toEqual(['西班牙语', '文案', '审校']);
    // A name no gloss carries still matches another Chinese text by its character pairs.
    expect([...allTerms('西班牙语')]).toEqual(expect.arrayContaining(['h:西班', 'h:班牙', 'h:牙语']));
  });

  it('lets a Chinese word meet its English translation on a shared term', () => {
    for (const [zh, en] of [
      ['数据库', 'database'],
      ['认证', 'authentication'],
      ['日志', 'log'],
    ]) {
      const shared = [...allTerms(zh)].filter((t) => allTerms(en).has(t));
      expect(shared, `${zh} / ${en}`).not.toEqual([]);
    }
  });

  it('gives unknown characters their pairs, next to the words it knows', () => {
    const units = segment('氪氙钌数据');
    expect(units[0]).toEqual({ kind: 'han', terms: ['h:氪氙', 'h:氙钌'], surface: '氪氙钌' });
    expect(units.map((u) => (u.kind === 'num' || u.kind === 'path' ? '' : u.surface))).toEqual(['氪氙钌', '数据']);
  });

  it('reads identifiers, English words, numbers and paths between the Chinese words', () => {
    expect(surfaces('使用jwt认证，调用client.ws.send')).toEqual([
      '使用',
      'jwt',
      '认证',
      '调用',
      'client.ws.send',
      'send',
    ]);
    expect(surfaces('§n0 秒后重试 §p')).toEqual(['#', '秒', '后', '重试', '/']);
    expect(surfaces('the 时区 must be utc')).toEqual(['the', '时区', 'must', 'be', 'utc']);
  });
});
