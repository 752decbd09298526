import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedRuntime } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { readTree, tmpDir } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { backdateDirs, jsonLoader, jsonProject, writeCorpusFile } from '../test/corpus.js';
import { SearchOutputSchema } from './schemas.js';
import { search } from './search.js';

const runtime = fixedRuntime('2026-03-01T00:00:00Z');

function setup() {
  const root = jsonProject();
  const layout = workflowLayout(root);
  const loadCorpus = jsonLoader();
  return { root, layout, run: (q: string, o = {}) => search(layout, q, { loadCorpus, ...o }, runtime) };
}

describe('search()', () => {
  it('returns ranked results in the published shape, with canonical ids', async () => {
    const t = setup();
    const r = await t.run('retry backoff');
    expect(SearchOutputSchema.parse(r)).toEqual(r);
    // knowhow-tip-2 is Chinese: 退避 and 重试 are CC-CEDICT's backoff and retry, below the literal hits.
    expect(r.results.map((h) => h.id)).toEqual(['S-1', 'knowhow-tip-1', 'knowhow-tip-2']);
    expect(r).toMatchObject({ total: 3, count: 3, mode: 'balanced', exposure_recorded: true });
    expect(r.index).toMatchObject({ status: 'built', entries: 6, persisted: true });
  });

  it('is exposure only: it writes nothing but the projection and the counters', async () => {
    const t = setup();
    const before = readTree(t.root, (rel) => rel.startsWith('.workflow/.index'));
    await t.run('retry');
    await t.run('缓存', { mode: 'relevance' });
    expect(readTree(t.root, (rel) => rel.startsWith('.workflow/.index'))).toEqual(before);
    const log = readFileSync(join(t.layout.index, 'search/exposure.jsonl'), 'utf8');
    expect(log).toBe('["S-1","knowhow-tip-2"]\n["knowhow-tip-2"]\n');
  });

  it('turns the exploration slot on only once counters exist', async () => {
    const t = setup();
    expect((await t.run('retry')).exploration_available).toBe(false);
    expect((await t.run('retry')).exploration_available).toBe(true);
    expect((await t.run('retry', { mode: 'relevance' })).exploration_available).toBe(false);
    writeFileSync(join(t.layout.index, 'search/exposure.json'), 'garbage');
    const r = await t.run('retry');
    expect(r.exploration_available).toBe(false);
    expect(r.results.map((h) => h.id)).toEqual(['S-1', 'knowhow-tip-2']);
    expect(r.warnings.join('\n')).toMatch(/exploration slot is off/);
  });

  it('with readOnly writes nothing at all', async () => {
    const t = setup();
    const r = await t.run('retry', { readOnly: true });
    expect(r).toMatchObject({ exposure_recorded: false, index: { persisted: false } });
    expect(() => readFileSync(join(t.layout.index, 'search/manifest.json'))).toThrow();
  });

  it('with recordExposure: false keeps the index but counts nothing', async () => {
    const t = setup();
    const r = await t.run('retry', { recordExposure: false });
    expect(r).toMatchObject({ exposure_recorded: false, index: { persisted: true } });
    expect(() => readFileSync(join(t.layout.index, 'search/exposure.jsonl'))).toThrow();
  });

  it('excludes deprecated entries unless asked', async () => {
    const t = setup();
    expect((await t.run('retry')).results.map((h) => h.id)).toEqual(['S-1', 'knowhow-tip-2']);
    const all = await t.run('retry', { includeDeprecated: true });
    expect(all.results.map((h) => h.id).sort()).toEqual(['S-1', 'S-old', 'knowhow-tip-2']);
    expect(all.filters.include_deprecated).toBe(true);
  });

  it('rebuilds a deleted index and gives the same answer', async () => {
    const t = setup();
    const a = await t.run('handles', { recordExposure: false });
    rmSync(t.layout.index, { recursive: true });
    const b = await t.run('handles', { recordExposure: false });
    expect(b.results).toEqual(a.results);
    expect(b.index.status).toBe('built');
  });

  it('warns about a query with no searchable words', async () => {
    const t = setup();
    const r = await t.run('the a of');
    expect(r.results).toEqual([]);
    expect(r.warnings).toContain('the query has no searchable words (stop words and one-letter words are ignored)');
  });

  it('refuses an empty query, bad options and a directory without .workflow/ (exit 2)', async () => {
    const t = setup();
    await expect(t.run('  ')).rejects.toMatchObject({ code: 'SEARCH_EMPTY_QUERY', exitCode: 2 });
    await expect(t.run('x', { limit: 0 })).rejects.toMatchObject({ code: 'SEARCH_BAD_OPTION', exitCode: 2 });
    const bare = workflowLayout(tmpDir());
    await expect(search(bare, 'x', {}, runtime)).rejects.toMatchObject({ code: 'NO_WORKFLOW', exitCode: 2 });
  });
});

describe('damage found while ranking', () => {
  it.each([
    ['records', /record \d+ is not valid JSON/],
    ['postings', /the postings of term \d+ are damaged/],
  ])('rebuilds once when a lazily read section (%s) is damaged', async (section, why) => {
    const t = setup();
    const good = await t.run('retry backoff', { recordExposure: false });
    const path = join(t.layout.index, 'search/index.bin');
    const bin = readFileSync(path);
    const header = JSON.parse(bin.toString('utf8', 8, 8 + bin.readUInt32LE(4)));
    const [at, len] = header.sections[section] as [number, number];
    bin.fill('#', at, at + len);
    writeFileSync(path, bin);
    const r = await t.run('retry backoff', { recordExposure: false });
    expect(r.results).toEqual(good.results);
    expect(r.index.status).toBe('rebuilt');
    expect(r.warnings.join('\n')).toMatch(new RegExp(`unreadable \\(${why.source}.*\\); rebuilt it`));
    expect((await t.run('retry backoff', { recordExposure: false })).index.status).toBe('fresh');
  });
});

describe('bodies read back from the corpus files', () => {
  it('stores no body that its file holds verbatim', async () => {
    const t = setup();
    await t.run('retry backoff', { recordExposure: false });
    const bin = readFileSync(join(t.layout.index, 'search/index.bin'));
    expect(bin.includes('exponential backoff')).toBe(false);
    expect(bin.includes('thundering herds')).toBe(false);
  });

  it('sees a file changed in place under an unchanged size and mtime by its ctime, and reindexes it', async () => {
    const t = setup();
    const good = await t.run('retry backoff', { recordExposure: false });
    expect(good.results[0].snippet).toContain('exponential backoff');
    const abs = join(t.layout.workflow, 'specs/coding.md');
    const st = statSync(abs);
    // Same length, so the size stays; the mtime is put back as `touch -r` or `rsync -t` would.
    writeFileSync(abs, readFileSync(abs, 'utf8').replace('exponential backoff', 'exponential jitters'));
    utimesSync(abs, st.atime, st.mtime);
    expect(statSync(abs)).toMatchObject({ size: st.size, mtimeMs: st.mtimeMs });
    expect(statSync(abs).ctimeMs).not.toBe(st.ctimeMs);
    const r = await t.run('jitters', { recordExposure: false });
    expect(r.index.status).toBe('updated');
    const hit = r.results.find((h) => h.id === 'S-1');
    expect(hit?.snippet).toContain('exponential jitters');
  });

  it('brings a manifest written before ctimes were recorded up to date by the hash of its entries', async () => {
    const t = setup();
    const good = await t.run('retry backoff', { recordExposure: false });
    const path = join(t.layout.index, 'search/manifest.json');
    const m = JSON.parse(readFileSync(path, 'utf8')) as { files: { ctime_ms?: number }[] };
    expect(m.files.every((f) => typeof f.ctime_ms === 'number')).toBe(true);
    for (const f of m.files) delete f.ctime_ms;
    writeFileSync(path, JSON.stringify(m));
    // Nothing changed: every file is reused by its entries' hash, and the manifest gains the ctimes.
    const r = await t.run('retry backoff', { recordExposure: false });
    expect(r.index.status).toBe('revalidated');
    expect(r.warnings).toEqual(good.warnings);
    expect(r.results).toEqual(good.results);
    const again = JSON.parse(readFileSync(path, 'utf8')) as { files: { ctime_ms?: number }[] };
    expect(again.files.every((f) => typeof f.ctime_ms === 'number')).toBe(true);
    expect((await t.run('retry backoff', { recordExposure: false })).index.status).toBe('fresh');
  });
});

describe('bodies of a file reused by the hash of its entries', () => {
  it('are found again where they now are in the file', async () => {
    const t = setup();
    backdateDirs(t.root);
    const good = await t.run('retry backoff', { recordExposure: false });
    // `source` is not indexed: same entries hash, but every body after it moved in the file.
    writeCorpusFile(t.root, 'specs/coding.md', [
      [
        'S-1',
        {
          source: 'a note long enough to move the body',
          title: 'Retry with backoff',
          content: 'Retry failed HTTP calls with exponential backoff.',
        },
      ],
      ['S-2', { title: 'Close handles', content: 'Always close file handles in finally blocks.' }],
    ]);
    backdateDirs(t.root);
    const updated = await t.run('retry backoff', { recordExposure: false });
    expect(updated.index).toMatchObject({ status: 'updated', reindexed: 0 });
    // As a new process would: the index on disk, bodies read back from the files.
    utimesSync(join(t.layout.index, 'search/index.bin'), new Date(), new Date(Date.now() + 5000));
    const again = await t.run('retry backoff', { recordExposure: false });
    expect(again.index.status).toBe('fresh');
    expect(again.warnings).toEqual([]);
    expect(again.results).toEqual(good.results);
  });
});

describe('bodies a file does not hold verbatim', () => {
  it('are stored in index.bin and read from there', async () => {
    const t = setup();
    // In the JSON corpus a quote is escaped: the body's text is not the file's bytes.
    writeCorpusFile(t.root, 'knowhow/TIP-9.md', [
      ['knowhow-tip-9', { title: 'Quoted retries', content: 'Say "retry" with backoff, not "again".' }],
    ]);
    backdateDirs(t.root);
    await t.run('quoted retries', { recordExposure: false });
    const bin = readFileSync(join(t.layout.index, 'search/index.bin'));
    const header = JSON.parse(bin.toString('utf8', 8, 8 + bin.readUInt32LE(4)));
    expect(header.sections.text[1]).toBeGreaterThan(0);
    utimesSync(join(t.layout.index, 'search/index.bin'), new Date(), new Date(Date.now() + 5000));
    const r = await t.run('quoted retries', { recordExposure: false });
    expect(r.index.status).toBe('fresh');
    expect(r.results[0]).toMatchObject({ id: 'knowhow-tip-9' });
    expect(r.results[0].snippet).toContain('Say "retry" with backoff');
  });
});
