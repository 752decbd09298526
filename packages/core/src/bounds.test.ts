import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { appendAll, INDEXED_TEXT_MAX, indexedText, isCapped, maxOf } from './index.js';

describe('indexedText', () => {
  it('returns a text that fits unchanged', () => {
    expect(indexedText('short text')).toBe('short text');
    expect(isCapped('x'.repeat(INDEXED_TEXT_MAX))).toBe(false);
  });

  it('cuts a long text at a space and never inside a surrogate pair', () => {
    const words = 'word '.repeat(100);
    expect(indexedText(words, 12)).toBe('word word ');
    const emoji = '😀'.repeat(10);
    const cut = indexedText(emoji, 5);
    expect(cut).toBe('😀😀');
    expect(isCapped(emoji, 5)).toBe(true);
  });
});

describe('appendAll and maxOf', () => {
  it('take more items than a call may take arguments', () => {
    const many = Array.from({ length: 500_000 }, (_, i) => i);
    expect(appendAll([-1], many).length).toBe(500_001);
    expect(maxOf(many)).toBe(499_999);
    expect(maxOf([], 8)).toBe(8);
  });
});

/**
 * Issue 19 item 1: a spread of data into call arguments (`push(...units)`, `Math.max(...xs)`)
 * overflows the stack once the data is large. Source files use `appendAll` / `maxOf` instead.
 */
describe('no argument spreads of data in the sources', () => {
  const repo = join(dirname(fileURLToPath(import.meta.url)), '../../..');
  const SPREAD = /\b(?:push|unshift|max|min|fromCharCode|fromCodePoint|concat|splice)\((?:[^()[\]{}]*,\s*)?\.\.\./;

  function sources(dir: string, out: string[] = []): string[] {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'dist') continue;
      const abs = join(dir, name);
      if (statSync(abs).isDirectory()) sources(abs, out);
      else if (/\.(ts|mjs)$/.test(name) && !/\.test\.ts$/.test(name)) out.push(abs);
    }
    return out;
  }

  it('finds none in packages/, apps/, tooling/ and bench/', () => {
    const hits: string[] = [];
    for (const top of ['packages', 'apps', 'tooling', 'bench']) {
      for (const file of sources(join(repo, top))) {
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (SPREAD.test(line) && !/^\s*(\*|\/\/)/.test(line))
              hits.push(`${relative(repo, file)}:${i + 1}: ${line.trim()}`);
          });
      }
    }
    expect(hits).toEqual([]);
  });
});
