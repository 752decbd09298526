import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workflowLayout } from '@maestro/fs';
import { afterEach, describe, expect, it } from 'vitest';
import { backdateDirs, jsonLoader, jsonProject, writeCorpusFile } from '../test/corpus.js';
import { CTX } from '../test/entries.js';
import { openSearchIndex } from './open.js';
import { rankIndex } from './rank.js';
import { IndexManifestSchema } from './schemas.js';

const ids = (index: Parameters<typeof rankIndex>[0], q: string) =>
  rankIndex(index, q, { mode: 'relevance' }, CTX).hits.map((h) => h.id);

function setup() {
  const root = jsonProject();
  const layout = workflowLayout(root);
  const loadCorpus = jsonLoader();
  const dir = join(layout.index, 'search');
  const manifest = () => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  return { root, layout, loadCorpus, dir, manifest, open: () => openSearchIndex(layout, { loadCorpus }) };
}

afterEach(() => {
  delete process.env.MAESTRO_LOCK_TIMEOUT_MS;
});

describe('the persisted projection', () => {
  it('is built on first use, then reused without parsing the corpus', async () => {
    const t = setup();
    const first = await t.open();
    expect(first).toMatchObject({ status: 'built', reindexed: 6, persisted: true, warnings: [] });
    expect(IndexManifestSchema.parse(t.manifest()).entries).toBe(6);
    const second = await t.open();
    expect(second.status).toBe('fresh');
    expect(second.index).toBe(first.index); // kept in memory while index.bin is unchanged
    expect(t.loadCorpus.calls).toBe(1);
    expect(ids(second.index, 'backoff')).toEqual(ids(first.index, 'backoff'));
    expect(second.index.body(0)).toBe(first.index.body(0));
  });

  it('is rebuilt, silently, after the directory is deleted', async () => {
    const t = setup();
    const before = ids((await t.open()).index, 'retry');
    rmSync(t.layout.index, { recursive: true });
    const again = await t.open();
    expect(again).toMatchObject({ status: 'built', warnings: [] });
    expect(ids(again.index, 'retry')).toEqual(before);
  });

  it.each([
    ['garbage in index.bin', (dir: string) => writeFileSync(join(dir, 'index.bin'), 'not an index')],
    [
      'a truncated index.bin',
      (dir: string) => writeFileSync(join(dir, 'index.bin'), readFileSync(join(dir, 'index.bin')).subarray(0, 100)),
    ],
    ['garbage in manifest.json', (dir: string) => writeFileSync(join(dir, 'manifest.json'), '{"schema_version": ')],
    [
      'a manifest of the wrong shape',
      (dir: string) => writeFileSync(join(dir, 'manifest.json'), '{"schema_version":"x"}'),
    ],
    ['a missing index.bin', (dir: string) => rmSync(join(dir, 'index.bin'))],
  ])('is rebuilt with a warning after %s', async (_, damage) => {
    const t = setup();
    const before = ids((await t.open()).index, 'retry');
    damage(t.dir);
    const again = await t.open();
    expect(again.status).toBe('rebuilt');
    expect(again.warnings).toHaveLength(1);
    expect(again.warnings[0]).toMatch(/search index .* was unreadable \(.+\); rebuilt it from the corpus/);
    expect(ids(again.index, 'retry')).toEqual(before);
    expect((await t.open()).status).toBe('fresh');
  });

  it('is rebuilt when index.bin belongs to another build (a torn pair)', async () => {
    const t = setup();
    await t.open();
    const oldBin = readFileSync(join(t.dir, 'index.bin'));
    writeCorpusFile(t.root, 'specs/arch.md', [['S-3', { title: 'Changed' }]]);
    await t.open();
    writeFileSync(join(t.dir, 'index.bin'), oldBin);
    const m = t.manifest();
    m.data_bytes = oldBin.length;
    writeFileSync(join(t.dir, 'manifest.json'), JSON.stringify(m));
    const again = await t.open();
    expect(again.status).toBe('rebuilt');
    expect(again.warnings[0]).toMatch(/another build/);
  });
});

describe('incremental updates', () => {
  it('re-indexes only the entries of a changed file', async () => {
    const t = setup();
    await t.open();
    const buildId = t.manifest().build_id;
    writeCorpusFile(t.root, 'specs/coding.md', [
      ['S-1', { title: 'Retry with jitter', content: 'Retry failed calls with jitter.' }],
      ['S-2', { title: 'Close handles', content: 'Always close file handles in finally blocks.' }],
    ]);
    const up = await t.open();
    expect(up).toMatchObject({ status: 'updated', reindexed: 2 });
    expect(t.manifest().build_id).not.toBe(buildId);
    expect(ids(up.index, 'jitter').sort()).toEqual(['S-1', 'knowhow-tip-1']);
    expect(ids(up.index, 'queue')).toEqual(['S-3']);
    expect((await t.open()).status).toBe('fresh');
  });

  it('carries unchanged files’ text over from index.bin, next to a file without entries', async () => {
    const t = setup();
    writeCorpusFile(t.root, 'specs/b-empty.md', []); // starts where coding.md starts
    await t.open();
    const fromDisk = () => {
      // a new mtime makes this process read index.bin again instead of its in-memory copy
      const later = new Date(Date.now() + 5_000);
      utimesSync(join(t.dir, 'index.bin'), later, later);
    };
    fromDisk();
    writeCorpusFile(t.root, 'specs/coding.md', [
      ['S-1', { title: 'Retry with jitter', content: 'Retry failed calls with jitter.' }],
      ['S-2', { title: 'Close handles', content: 'Close file handles in finally blocks, always.' }],
    ]);
    const up = await t.open();
    expect(up).toMatchObject({ status: 'updated', reindexed: 2 });
    fromDisk();
    const warm = await t.open();
    expect(warm.status).toBe('fresh');
    rmSync(t.layout.index, { recursive: true });
    const rebuilt = await t.open();
    const bodies = (i: typeof up.index) => Array.from({ length: i.size }, (_, d) => i.body(d));
    expect(bodies(rebuilt.index)).toContain('Retry failed calls with jitter.');
    expect(bodies(up.index)).toEqual(bodies(rebuilt.index));
    expect(bodies(warm.index)).toEqual(bodies(rebuilt.index));
  });

  it('keeps index.bin when only timestamps changed (the entries hash is the same)', async () => {
    const t = setup();
    await t.open();
    const { build_id, data_bytes } = t.manifest();
    const binTime = statSync(join(t.dir, 'index.bin')).mtimeMs;
    const past = new Date(Date.now() - 30_000);
    utimesSync(join(t.root, '.workflow/specs/arch.md'), past, past);
    const again = await t.open();
    expect(again).toMatchObject({ status: 'revalidated', reindexed: 0 });
    expect(t.manifest()).toMatchObject({ build_id, data_bytes });
    expect(statSync(join(t.dir, 'index.bin')).mtimeMs).toBe(binTime);
    expect((await t.open()).status).toBe('fresh');
  });

  it('picks up added and removed files', async () => {
    const t = setup();
    await t.open();
    writeCorpusFile(t.root, 'knowhow/TIP-3.md', [['knowhow-tip-3', { title: 'Idempotency keys' }]]);
    const added = await t.open();
    expect(added).toMatchObject({ status: 'updated', reindexed: 1 });
    expect(ids(added.index, 'idempotency')).toEqual(['knowhow-tip-3']);
    rmSync(join(t.root, '.workflow/specs/arch.md'));
    const removed = await t.open();
    expect(removed).toMatchObject({ status: 'updated', reindexed: 0 });
    expect(ids(removed.index, 'queue')).toEqual([]);
    expect(Array.from({ length: removed.index.size }, (_, d) => removed.index.doc(d).id).sort()).toEqual([
      'S-1',
      'S-2',
      'knowhow-tip-1',
      'knowhow-tip-2',
      'knowhow-tip-3',
    ]);
  });

  it('sees a file renamed in place (the same number of files, the same bytes and mtime)', async () => {
    const t = setup();
    await t.open();
    const from = join(t.root, '.workflow/knowhow/TIP-1.md');
    const to = join(t.root, '.workflow/knowhow/TIP-9.md');
    const st = statSync(from);
    writeFileSync(to, readFileSync(from));
    utimesSync(to, st.atime, st.mtime);
    rmSync(from);
    const renamed = await t.open();
    expect(renamed.status).toBe('updated');
    expect(t.manifest().files.map((f: { path: string }) => f.path)).toContain('knowhow/TIP-9.md');
    expect(t.manifest().files.map((f: { path: string }) => f.path)).not.toContain('knowhow/TIP-1.md');
  });

  it('does not reparse when only lock or temp files came and went', async () => {
    const t = setup();
    await t.open();
    writeFileSync(join(t.root, '.workflow/specs/coding.md.lock'), '{}');
    rmSync(join(t.root, '.workflow/specs/coding.md.lock'));
    writeFileSync(join(t.root, '.workflow/specs/notes.txt'), 'not corpus');
    expect((await t.open()).status).toBe('fresh');
    expect(t.loadCorpus.calls).toBe(1);
  });

  it('re-checks a file whose timestamp is too recent to trust (racy), then trusts it', async () => {
    const t = setup();
    const now = new Date();
    writeCorpusFile(t.root, 'specs/coding.md', [['S-1', { title: 'Racy' }]], now);
    backdateDirs(t.root);
    await t.open();
    const again = await t.open();
    expect(again.status).toBe('revalidated');
    expect(t.loadCorpus.calls).toBe(2);
    // same bytes, same stat, but rewritten within the same tick: only the racy check can see it
    writeFileSync(
      join(t.root, '.workflow/specs/coding.md'),
      JSON.stringify([['S-1', { title: 'Sneaky' }]]).padEnd(
        readFileSync(join(t.root, '.workflow/specs/coding.md')).length,
      ),
    );
    utimesSync(join(t.root, '.workflow/specs/coding.md'), now, now);
    const caught = await t.open();
    expect(caught.status).toBe('updated');
    expect(ids(caught.index, 'sneaky')).toEqual(['S-1']);
  });
});

describe('when it cannot or must not write', () => {
  it('updates in memory only with persist: false', async () => {
    const t = setup();
    const r = await openSearchIndex(t.layout, { loadCorpus: t.loadCorpus, persist: false });
    expect(r).toMatchObject({ status: 'built', persisted: false });
    expect(() => statSync(t.layout.index)).toThrow();
  });

  it('searches an in-memory update when another process holds the index lock', async () => {
    const t = setup();
    await t.open();
    writeCorpusFile(t.root, 'knowhow/TIP-3.md', [['knowhow-tip-3', { title: 'Idempotency keys' }]]);
    const lock = join(t.dir, 'index.lock');
    writeFileSync(
      lock,
      JSON.stringify({
        pid: process.pid,
        host: (await import('node:os')).hostname(),
        token: 'x',
        createdAt: Date.now(),
      }),
    );
    process.env.MAESTRO_LOCK_TIMEOUT_MS = '150';
    const r = await t.open();
    expect(r).toMatchObject({ status: 'updated', persisted: false });
    expect(r.warnings.join('\n')).toMatch(/timed out waiting for lock .*index\.lock.*in-memory update/);
    expect(ids(r.index, 'idempotency')).toEqual(['knowhow-tip-3']);
    rmSync(lock);
  });
});
