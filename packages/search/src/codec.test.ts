import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CTX, entry } from '../test/entries.js';
import { buildIndex } from './build.js';
import { CorruptIndexError, compressBodiesSync, encodeIndex, TextBuilder } from './codec.js';
import { decodeIndex, openIndexFile } from './codec-read.js';
import { parseManifest } from './manifest.js';
import { rankIndex } from './rank.js';
import { IndexManifestSchema } from './schemas.js';

const corpus = [
  entry('S-1', {
    title: 'Retry with backoff',
    content: 'Retry failed calls with exponential backoff.',
    keywords: ['retry'],
  }),
  entry('S-2', {
    title: '知识图谱',
    content: '用图谱表示依赖关系',
    category: 'arch',
    date: null,
    status: 'deprecated',
  }),
  entry('knowhow-x', { title: 'parseJsonText', content: 'Emoji 🚀 and ﬁ ligatures survive.', description: 'one line' }),
];

describe('index.bin', () => {
  it('round-trips: the decoded index ranks, labels and quotes exactly like the built one', () => {
    const built = buildIndex(corpus);
    const { index, buildId } = decodeIndex(encodeIndex(built, 'abc123'));
    expect(buildId).toBe('abc123');
    expect(index.size).toBe(3);
    for (let d = 0; d < 3; d++) {
      expect(index.doc(d)).toEqual(built.doc(d));
      expect(index.body(d)).toBe(built.body(d));
    }
    expect(index.avgLengths).toEqual(built.avgLengths);
    expect([...index.flags]).toEqual([0, 2, 1]);
    for (const q of ['retry', '图', 'json', '"exponential backoff"']) {
      const o = { includeDeprecated: true };
      expect(rankIndex(index, q, o, CTX)).toEqual(rankIndex(built, q, o, CTX));
    }
  });

  it('round-trips every posting: long gaps, several fields, frequencies above one (and the 255 cap)', () => {
    const many = Array.from({ length: 3000 }, (_, i) =>
      entry(`S-${i}`, {
        title: i % 7 === 0 ? 'Retry backoff' : `Rule ${i}`,
        content:
          i === 0 || i === 2999
            ? 'zephyr '.repeat(300)
            : i % 5 === 0
              ? `retry ${'backoff '.repeat(i % 13)} jitter`
              : `plain rule number ${i}`,
        keywords: i % 11 === 0 ? ['retry'] : [],
      }),
    );
    const built = buildIndex(many);
    const { index } = decodeIndex(encodeIndex(built, 'p'));
    const all = built.terms.map((_, t) => t);
    index.prepare?.(all);
    expect(index.terms).toEqual(built.terms);
    expect([...index.termStart]).toEqual([...built.termStart]);
    expect(
      Buffer.from(index.postDoc.buffer, index.postDoc.byteOffset, index.postDoc.byteLength).equals(
        Buffer.from(built.postDoc.buffer, built.postDoc.byteOffset, built.postDoc.byteLength),
      ),
    ).toBe(true);
    expect(
      Buffer.from(index.postTf.buffer, index.postTf.byteOffset, index.postTf.byteLength).equals(
        Buffer.from(built.postTf.buffer, built.postTf.byteOffset, built.postTf.byteLength),
      ),
    ).toBe(true);
    expect([...built.postTf].some((tf) => tf > 1)).toBe(true);
    expect([...built.postTf]).toContain(255);
  });

  it('decodes from an unaligned buffer', () => {
    const bytes = encodeIndex(buildIndex(corpus), 'x');
    const shifted = Buffer.alloc(bytes.length + 3);
    bytes.copy(shifted, 3);
    expect(decodeIndex(shifted.subarray(3)).index.doc(0).id).toBe('S-1');
  });

  it('rejects damage with a CorruptIndexError naming the problem', () => {
    const bytes = encodeIndex(buildIndex(corpus), 'x');
    const header = JSON.parse(bytes.toString('utf8', 8, 8 + bytes.readUInt32LE(4)));
    const cases: [Buffer, RegExp][] = [
      [Buffer.from('nope'), /not a search index file/],
      [bytes.subarray(0, 40), /header is truncated/],
      [bytes.subarray(0, bytes.length - 8), /outside the file/],
      [
        (() => {
          const b = Buffer.from(bytes);
          b.writeUInt32LE(999, header.sections.termStart[0] + 4);
          return b;
        })(),
        /term offsets are not increasing|postings do not match/,
      ],
    ];
    for (const [buf, msg] of cases) {
      expect(() => decodeIndex(buf)).toThrow(CorruptIndexError);
      expect(() => decodeIndex(buf)).toThrow(msg);
    }
  });

  it('opens a file without reading it whole and answers exactly like the built index', () => {
    const dir = mkdtempSync(join(tmpdir(), 'maestro-codec-'));
    const built = buildIndex(corpus);
    writeFileSync(join(dir, 'index.bin'), encodeIndex(built, 'f1'));
    const { index, buildId, bytes } = openIndexFile(join(dir, 'index.bin'), null);
    expect([buildId, bytes]).toEqual(['f1', statSync(join(dir, 'index.bin')).size]);
    expect(index.termRank?.('retry')).toBe(built.terms.indexOf('retry'));
    expect(index.termRank?.('absent')).toBe(-1);
    for (const q of ['retry', '图', 'json', '"exponential backoff"']) {
      const o = { includeDeprecated: true };
      expect(rankIndex(index, q, o, CTX)).toEqual(rankIndex(built, q, o, CTX));
    }
    expect(index.terms).toEqual(built.terms);
    rmSync(dir, { recursive: true, force: true });
  });

  it('expands queries on an index opened from a file exactly as on the built one (alternatives decoded too)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'maestro-codec-'));
    const meaning = [
      entry('S-log', { title: 'Logging library', content: 'Use pino for every service.' }),
      entry('S-tz', {
        title: 'Timezone handling',
        content: 'Store timestamps in UTC; convert to the timezone for display.',
      }),
      entry('S-up', { title: 'Upload retries', content: 'Retry a failed upload 3 times before giving up.' }),
      entry('S-zh', { title: '日志格式', content: '日志一律输出为 JSON 行。' }),
    ];
    const built = buildIndex(meaning);
    writeFileSync(join(dir, 'index.bin'), encodeIndex(built, 'f2'));
    for (const q of ['how should we log', 'time zone', '日志', 'logging format']) {
      // A fresh open per query: nothing decoded by an earlier query may hide a missing prepare.
      const { index } = openIndexFile(join(dir, 'index.bin'), null);
      const o = { mode: 'relevance' as const };
      expect(rankIndex(index, q, o, CTX)).toEqual(rankIndex(built, q, o, CTX));
    }
    const { index } = openIndexFile(join(dir, 'index.bin'), null);
    expect(rankIndex(index, 'time zone', { mode: 'relevance' }, CTX).hits[0]?.id).toBe('S-tz');
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds damage inside a term’s postings or a text block when a query first reads them', () => {
    const built = buildIndex(corpus);
    const bytes = encodeIndex(built, 'x');
    const header = JSON.parse(bytes.toString('utf8', 8, 8 + bytes.readUInt32LE(4)));
    const postings = Buffer.from(bytes);
    postings.fill(0xff, header.sections.postings[0], header.sections.postings[0] + header.sections.postings[1]);
    const damagedPostings = decodeIndex(postings).index; // the tables are intact: it opens
    expect(() => rankIndex(damagedPostings, 'retry', {}, CTX)).toThrow(CorruptIndexError);
    expect(() => rankIndex(damagedPostings, 'retry', {}, CTX)).toThrow(/postings of term \d+ are damaged/);
    const text = Buffer.from(bytes);
    text.fill(0x00, header.sections.text[0], header.sections.text[0] + header.sections.text[1]);
    expect(() => decodeIndex(text).index.body(0)).toThrow(CorruptIndexError);
  });

  it('keeps body text compressed: the file is smaller than the text it holds', () => {
    const long = Array.from({ length: 200 }, (_, i) =>
      entry(`S-${i}`, { title: `Rule ${i}`, content: 'Retry failed calls with exponential backoff. '.repeat(40) }),
    );
    const built = buildIndex(long);
    let text = 0;
    for (let d = 0; d < built.size; d++) text += Buffer.byteLength(built.body(d));
    const bytes = encodeIndex(built, 'z');
    expect(bytes.length).toBeLessThan(text / 4);
    const { index } = decodeIndex(bytes);
    for (const d of [0, 57, 199]) expect(index.body(d)).toBe(built.body(d));
  });

  it('cuts text blocks at file starts, so an update can copy a file’s blocks as they are', () => {
    const long = Array.from({ length: 30 }, (_, i) =>
      entry(`S-${i}`, { title: `Rule ${i}`, content: `Rule ${i}: retry with backoff. `.repeat(200) }),
    );
    const built = buildIndex(long);
    const bodies = Array.from({ length: built.size }, (_, d) => built.body(d));
    const { index } = decodeIndex(encodeIndex(built, 'b', compressBodiesSync(bodies, [0, 10, 25])));
    expect(index.textBlocksOf?.(10, 15)).not.toBeNull();
    expect(index.textBlocksOf?.(25, 5)).not.toBeNull();
    expect(index.textBlocksOf?.(11, 14)).toBeNull(); // shares a block with document 10
    // copied into another index, the blocks still give the same text
    const out = new TextBuilder(built.size);
    out.copy(0, index.textBlocksOf!(0, 10)!);
    for (let d = 10; d < 25; d++) out.add(d, bodies[d]);
    out.copy(25, index.textBlocksOf!(25, 5)!);
    const again = decodeIndex(encodeIndex(built, 'c', out.finish())).index;
    for (let d = 0; d < built.size; d++) expect(again.body(d)).toBe(bodies[d]);
  });

  it('stores a string body as the very bytes of its UTF-8, surrogate halves at its edges included', () => {
    const texts = ['plain', '\ud83d', '\ude00 tail', 'héllo 认证', '', 'end \ud83d', '\ude00', 'x'.repeat(40)];
    const asStrings = new TextBuilder(texts.length, 16);
    const asBytes = new TextBuilder(texts.length, 16);
    texts.forEach((t, d) => {
      asStrings.add(d, t);
      asBytes.addBytes(d, Buffer.from(t, 'utf8'));
    });
    const a = asStrings.finish();
    const b = asBytes.finish();
    expect(Array.from(a.index)).toEqual(Array.from(b.index));
    expect(a.rawLengths).toEqual(b.rawLengths);
    expect(Buffer.concat(a.blocks).equals(Buffer.concat(b.blocks))).toBe(true);
  });

  it('encodes an empty corpus', () => {
    const { index } = decodeIndex(encodeIndex(buildIndex([]), 'e'));
    expect(index.size).toBe(0);
    expect(rankIndex(index, 'anything', {}, CTX).hits).toEqual([]);
  });
});

describe('manifest.json checks', () => {
  const good = {
    schema_version: 'search-index-manifest/1.0',
    format: 1,
    tokenizer: 'tok-1',
    build_id: 'b',
    built_at_ms: 1,
    entries: 1,
    data_bytes: 10,
    dirs: [{ path: 'specs', mtime_ms: null }],
    files: [{ path: 'specs/a.md', size: 1, mtime_ms: 2, hash: 'h', first: 0, count: 1 }],
    issues: [],
  };

  it('accept exactly what the published schema accepts', () => {
    expect(IndexManifestSchema.parse(good)).toEqual(good);
    expect(parseManifest(JSON.stringify(good))).toEqual(good);
    const broken = [
      { ...good, schema_version: 'x' },
      { ...good, files: [{ ...good.files[0], hash: 3 }] },
      { ...good, dirs: [{ path: 'specs' }] },
      { ...good, built_at_ms: 'yesterday' },
    ];
    for (const b of broken) {
      expect(IndexManifestSchema.safeParse(b).success).toBe(false);
      expect(() => parseManifest(JSON.stringify(b))).toThrow(/does not have the search-index-manifest\/1.0 shape/);
    }
    expect(() => parseManifest('{')).toThrow(/not valid JSON/);
  });
});
