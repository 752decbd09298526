import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workflowLayout } from '@maestro/fs';
import { tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { COMPACT_AFTER_BYTES, compactExposure, readExposure, recordExposure } from './exposure.js';
import { ExposureSnapshotSchema } from './schemas.js';

function setup() {
  const layout = workflowLayout(tmpProject());
  const dir = join(layout.index, 'search');
  return { layout, dir };
}

describe('exposure counters', () => {
  it('are absent until something is shown (exploration off)', () => {
    const { layout } = setup();
    expect(readExposure(layout)).toEqual({ counts: null, warning: null });
  });

  it('count each id once per search that showed it', async () => {
    const { layout } = setup();
    await recordExposure(layout, ['S-1', 'S-2']);
    await recordExposure(layout, ['S-1']);
    expect(readExposure(layout).counts).toEqual(
      new Map([
        ['S-1', 2],
        ['S-2', 1],
      ]),
    );
  });

  it('skip a torn line and keep counting after it', async () => {
    const { layout, dir } = setup();
    await recordExposure(layout, ['S-1']);
    appendFileSync(join(dir, 'exposure.jsonl'), '["S-2","S-');
    appendFileSync(join(dir, 'exposure.jsonl'), '\n');
    await recordExposure(layout, ['S-3']);
    expect(readExposure(layout).counts).toEqual(
      new Map([
        ['S-1', 1],
        ['S-3', 1],
      ]),
    );
  });

  it('do not count a line that is still being written', async () => {
    const { layout, dir } = setup();
    await recordExposure(layout, ['S-1']);
    appendFileSync(join(dir, 'exposure.jsonl'), '["S-2"]');
    expect(readExposure(layout).counts).toEqual(new Map([['S-1', 1]]));
    appendFileSync(join(dir, 'exposure.jsonl'), '\n');
    expect(readExposure(layout).counts).toEqual(
      new Map([
        ['S-1', 1],
        ['S-2', 1],
      ]),
    );
  });

  it('compact into a snapshot and a new log without counting anything twice', async () => {
    const { layout, dir } = setup();
    await recordExposure(layout, ['S-1', 'S-2']);
    expect(await compactExposure(layout)).toBe(true);
    const snap = ExposureSnapshotSchema.parse(JSON.parse(readFileSync(join(dir, 'exposure.json'), 'utf8')));
    expect(snap.counts).toEqual({ 'S-1': 1, 'S-2': 1 });
    expect(existsSync(join(dir, 'exposure.jsonl'))).toBe(false);
    expect(readExposure(layout).counts).toEqual(
      new Map([
        ['S-1', 1],
        ['S-2', 1],
      ]),
    );
    await recordExposure(layout, ['S-2']);
    expect(readExposure(layout).counts).toEqual(
      new Map([
        ['S-1', 1],
        ['S-2', 2],
      ]),
    );
    await compactExposure(layout);
    await compactExposure(layout);
    expect(readExposure(layout).counts).toEqual(
      new Map([
        ['S-1', 1],
        ['S-2', 2],
      ]),
    );
  });

  it('compact by themselves once the log passes the threshold', async () => {
    const { layout, dir } = setup();
    const ids = Array.from({ length: 200 }, (_, i) => `knowhow-entry-number-${i}`);
    const lines = Math.ceil(COMPACT_AFTER_BYTES / JSON.stringify(ids).length) + 1;
    for (let i = 0; i < lines; i++) await recordExposure(layout, ids);
    expect(existsSync(join(dir, 'exposure.json'))).toBe(true);
    expect(readExposure(layout).counts?.get('knowhow-entry-number-7')).toBe(lines);
  });

  it('switch exploration off with a warning when the snapshot is corrupt', async () => {
    const { layout, dir } = setup();
    await recordExposure(layout, ['S-1']);
    writeFileSync(join(dir, 'exposure.json'), '{not json');
    const r = readExposure(layout);
    expect(r.counts).toBeNull();
    expect(r.warning).toMatch(/exposure counters .*exposure\.json are unreadable .*exploration slot is off/);
    writeFileSync(
      join(dir, 'exposure.json'),
      JSON.stringify({ schema_version: 'search-exposure/1.0', counts: { a: -1 }, log: null }),
    );
    expect(readExposure(layout).counts).toBeNull();
  });

  it('report a failed write as a warning, never an error', async () => {
    const { layout, dir } = setup();
    writeFileSync(join(layout.index), 'a file where a directory should be');
    expect(await recordExposure(layout, ['S-1'])).toMatch(/could not record exposure/);
    expect(existsSync(dir)).toBe(false);
  });
});
