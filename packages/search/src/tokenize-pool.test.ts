import { indexedText } from '@maestro/core';
import { describe, expect, it } from 'vitest';
import { CTX, entry } from '../test/entries.js';
import { assembleIndex, buildIndex, docFromEntry, TermTable } from './build.js';
import { rankIndex } from './rank.js';
import { docsHash, docsHashJson, tokenizeGroups } from './tokenize-pool.js';

const entries = [
  entry('S-1', { title: 'Retry "with" backoff', content: 'Retry failed calls.\n\tWith "quotes" and \\ slashes.' }),
  entry('S-2', { title: '知识图谱 🚀', content: '用图谱表示依赖关系', category: 'arch', date: null }),
  entry('knowhow-x', { title: 'parseJsonText', content: 'ﬁ ligatures\u2028and line separators', description: 'd' }),
];

describe('the tokenising pool', () => {
  it('hashes documents sent as JSON exactly as it hashes the objects', () => {
    const docs = entries.map(docFromEntry);
    const bodies = entries.map((e) => indexedText(e.content));
    expect(
      docsHashJson(
        docs.map((d) => JSON.stringify(d)),
        bodies,
      ),
    ).toBe(docsHash(docs, bodies));
    expect(docsHash(docs, bodies)).not.toBe(docsHash(docs, [...bodies.slice(0, 2), 'changed']));
  });

  it('gives forward documents that assemble into the index buildIndex makes', async () => {
    const groups = [entries.slice(0, 2), entries.slice(2)].map((g) => ({
      docs: g.map(docFromEntry),
      bodies: g.map((e) => indexedText(e.content)),
      hash: null,
    }));
    const table = new TermTable();
    const out = await tokenizeGroups(groups, table);
    expect(out.hashes).toEqual(groups.map((g) => docsHash(g.docs, g.bodies)));
    const index = assembleIndex(out.forward.flat(), table);
    const built = buildIndex(entries);
    expect(index.terms).toEqual(built.terms);
    for (const q of ['retry', '图谱', 'json']) {
      expect(rankIndex(index, q, {}, CTX)).toEqual(rankIndex(built, q, {}, CTX));
    }
  });
});
