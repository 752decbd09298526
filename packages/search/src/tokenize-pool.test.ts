import { indexedText } from '@maestro/core';
import { describe, expect, it } from 'vitest';
import { CTX, entry } from '../test/entries.js';
import { assembleIndex, buildIndex, docFromEntry, TermTable } from './build.js';
import { CHUNK_TERMS, ForwardChunks } from './forward-chunks.js';
import { rankIndex } from './rank.js';
import { docsHash, docsHashJson, GroupHashes, tokenizeGroups } from './tokenize-pool.js';

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

  it('hashes ranges fed document by document as docsHashJson hashes them, empty ranges included', () => {
    const json = ['{"a":1}', '{"b":2}', '{"c":3}', '{"d":4}', '{"e":5}'];
    const bodies = ['one', 'two', '', 'four', 'five'];
    const ranges: [number, number][] = [
      [0, 0],
      [0, 2],
      [2, 2],
      [3, 5],
      [5, 5],
    ];
    const h = new GroupHashes(ranges);
    json.forEach((j, d) => {
      h.add(d, j, bodies[d]);
    });
    expect(h.end(json.length)).toEqual(ranges.map(([a, b]) => docsHashJson(json.slice(a, b), bodies.slice(a, b))));
  });
});

describe('forward chunks', () => {
  it('packs documents into shared chunks, a large one in a chunk of its own', () => {
    const table = new TermTable();
    const chunks = new ForwardChunks();
    const small = chunks.add(['a', 'b'], Uint8Array.from([1, 0, 0, 2, 0, 1, 0, 0]), table);
    const big = Array.from({ length: CHUNK_TERMS }, (_, i) => `t${i}`);
    const large = chunks.add(big, new Uint8Array(big.length * 4).fill(1), table);
    const after = chunks.add(['b', 'c'], Uint8Array.from([3, 0, 0, 0, 0, 0, 0, 4]), table);
    expect([...small.termIds]).toEqual([0, 1]);
    expect([...small.tfs]).toEqual([1, 0, 0, 2, 0, 1, 0, 0]);
    expect(large.termIds.length).toBe(CHUNK_TERMS);
    expect(large.termIds[0]).toBe(table.intern('t0'));
    expect([...after.termIds]).toEqual([1, table.intern('c')]);
    expect([...after.tfs]).toEqual([3, 0, 0, 0, 0, 0, 0, 4]);
    expect(chunks.ids.length).toBe(3);
    expect(small.termIds.buffer).toBe(chunks.ids[0].buffer);
    expect(after.termIds.buffer).toBe(chunks.ids[2].buffer);
  });
});
