import { describe, expect, it } from 'vitest';
import { wordDiff } from './diff.js';
import { escapeHtml, h } from './html.js';
import { compare } from './views/compare.js';

const marks = (parts: { text: string; changed: boolean }[]) => parts.filter((p) => p.changed).map((p) => p.text);

describe('wordDiff', () => {
  it('marks only the words that differ, on both sides, and loses no text', () => {
    const a = 'Use winston for application logging.';
    const b = 'Use pino for application logging.';
    const d = wordDiff(a, b);
    expect(marks(d.left)).toEqual(['winston']);
    expect(marks(d.right)).toEqual(['pino']);
    expect(d.left.map((p) => p.text).join('')).toBe(a);
    expect(d.right.map((p) => p.text).join('')).toBe(b);
  });

  it('ignores case and NFKC width differences; joins adjacent changes across spaces', () => {
    const d = wordDiff('Sessions MUST be kept in Postgres', 'sessions may be kept in process memory');
    expect(marks(d.left)).toEqual(['MUST', 'Postgres']);
    expect(marks(d.right)).toEqual(['may', 'process memory']);
    expect(marks(wordDiff('ＡＰＩ keys', 'API keys').left)).toEqual([]);
  });

  it('splits Chinese into words, so one inserted word is marked, not the sentence', () => {
    const d = wordDiff('日志中禁止输出用户手机号和身份证号。', '日志中禁止输出用户手机号、身份证号和邮箱地址。');
    expect(d.left.map((p) => p.text).join('')).toBe('日志中禁止输出用户手机号和身份证号。');
    expect(marks(d.right).join('')).toContain('邮箱');
    expect(marks(d.right).join('')).not.toContain('日志');
  });

  it('equal texts have no marks; a very long pair degrades to marking the middle, still lossless', () => {
    expect(marks(wordDiff('same text', 'same text').left)).toEqual([]);
    const long = (w: string) => Array.from({ length: 700 }, (_, i) => `${w}${i}`).join(' ');
    const d = wordDiff(`start ${long('a')} end`, `start ${long('b')} end`);
    expect(d.left[0]).toEqual({ text: 'start ', changed: false });
    expect(d.left.map((p) => p.text).join('')).toBe(`start ${long('a')} end`);
    expect(d.right[d.right.length - 1]).toEqual({ text: ' end', changed: false });
  });
});

describe('html', () => {
  it('escapes every interpolated value, keeps Html as is, and drops null/false', () => {
    expect(escapeHtml(`<script>"x"&'y'</script>`)).toBe('&lt;script&gt;&quot;x&quot;&amp;&#39;y&#39;&lt;/script&gt;');
    const inner = h`<b>${'</textarea>'}</b>`;
    expect(h`<p title="${'" onmouseover="x'}">${inner}${null}${false}${['<i>', 1]}</p>`.value).toBe(
      '<p title="&quot; onmouseover=&quot;x"><b>&lt;/textarea&gt;</b>&lt;i&gt;1</p>',
    );
  });
});

describe('compare', () => {
  it('compares the opening of a long entry and counts the rest, never hiding that it is there', () => {
    const long = `Use pino for logging. ${'More background text. '.repeat(60)}`;
    const html = compare(
      { title: 'Logger', content: 'Use winston for logging.' },
      { id: 'S-1', title: 'Logger', content: long, status: 'active', file: 'specs/a.md', line: 3 },
      'S-1',
    ).value;
    expect(html).toContain('Use <del>winston</del> for logging.');
    expect(html).toContain(`… ${[...long].length - 700} more characters (full text in specs/a.md:3)`);
  });
});

describe('langOf', () => {
  it('marks Chinese text as zh so the browser picks a Chinese font, and leaves English alone', () => {
    const html = compare({ title: '日志', content: '日志中禁止输出手机号。' }, null, '').value;
    expect(html).toContain('<p class="text" lang="zh">日志中禁止输出手机号。</p>');
    expect(compare({ title: 'Log', content: 'No phone numbers in logs.' }, null, '').value).toContain(
      '<p class="text">No phone numbers in logs.</p>',
    );
  });
});
