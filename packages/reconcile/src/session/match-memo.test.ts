import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { sha256 } from '@maestro/core';
import { closeStores, openStore } from '@maestro/store';
import { afterEach, describe, expect, it } from 'vitest';
import { useMatchStore } from './corpus-cache.js';
import { runMatchMemo } from './match-memo.js';
import { reconcileSession } from './reconcile-session.js';
import { forgetCurrentCorpus } from './revalidate-run.js';
import { reviewSession } from './review.js';
import {
  IMAGES,
  LOGGER,
  project,
  R1,
  rotationRuns,
  runtime,
  S,
  type SpecSpec,
  specFile,
  UNRELATED,
  UTC,
} from './session.fixture.js';

/** Neighbours enough that retrieval never falls back on title trigrams (such traces are not kept). */
const NEIGHBOURS: SpecSpec[] = ['service', 'worker', 'gateway', 'scheduler', 'importer', 'exporter'].map((w, i) => ({
  sid: `S-20260101-nb${i}0`,
  title: `${w} logs and forms`,
  content: `The ${w} rotates its log files, keeps them thirty days and labels every form field.`,
}));

async function refreshed() {
  const p = project(rotationRuns(), { coding: [LOGGER, UTC, ...NEIGHBOURS] });
  await reconcileSession(p.layout, S, { refresh: true }, runtime());
  return p;
}

type P = Awaited<ReturnType<typeof refreshed>>;

/** A review as a fresh process makes it. */
async function review(p: P) {
  closeStores();
  forgetCurrentCorpus();
  return reviewSession(p.layout, S, {}, runtime());
}

/** The images entry edited: the fingerprint moves, no candidate's answers do. */
function editImages(p: P) {
  const edited = { ...IMAGES, content: `${IMAGES.content} Prefer WebP.` };
  writeFileSync(join(p.root, '.workflow/specs/ui-conventions.md'), specFile([edited], 'ui'));
}

function rows(p: P) {
  return openStore(p.layout).db.prepare('SELECT run, key, value, sha256 FROM mmemo_matches ORDER BY run').all() as {
    run: string;
    key: string;
    value: Buffer;
    sha256: string;
  }[];
}

const unpack = (value: Buffer) => JSON.parse(inflateRawSync(value).toString('utf8')) as Record<string, unknown>;

/** Every kept row of R1 rewritten to say it matched nothing, with a matching hash. */
function lie(p: P) {
  const db = openStore(p.layout).db;
  for (const r of rows(p).filter((x) => x.run.endsWith(R1))) {
    const value = deflateRawSync(JSON.stringify({ ...unpack(r.value), matches: [] }));
    db.prepare('UPDATE mmemo_matches SET value = ?, sha256 = ? WHERE run = ? AND key = ?').run(
      value,
      sha256(value),
      r.run,
      r.key,
    );
  }
}

afterEach(() => {
  useMatchStore(true);
  delete process.env.MAESTRO_MATCH_MEMO;
  closeStores();
  forgetCurrentCorpus();
});

describe('match memo', () => {
  it('keeps each candidate traced and answers a revalidation exactly as without it', async () => {
    const p = await refreshed();
    expect(rows(p).length).toBe(2);
    editImages(p);
    const first = await review(p);
    expect(first.runs.map((r) => r.revalidated?.changed)).toEqual([1, 1]);
    process.env.MAESTRO_MATCH_MEMO = '0';
    expect(runMatchMemo(p.layout, `${S}/${R1}`)).toBeNull();
    expect(await review(p)).toEqual(first);
    delete process.env.MAESTRO_MATCH_MEMO;
    rmSync(p.layout.index, { recursive: true, force: true });
    expect(await review(p)).toEqual(first);
  });

  it('a row whose trace replays is used; once its answers moved it is matched again', async () => {
    const p = await refreshed();
    editImages(p);
    lie(p);
    const used = await review(p);
    expect(used.runs.find((r) => r.run_id === R1)?.reasons.join(' ')).toMatch(/not revalidated/);
    // Twelve entries added: n and postings moved, so the lying row no longer replays.
    const p2 = await refreshed();
    lie(p2);
    writeFileSync(join(p2.root, '.workflow/specs/architecture-constraints.md'), specFile(UNRELATED, 'arch'));
    const fresh = await review(p2);
    expect(fresh.runs.map((r) => r.revalidated?.added)).toEqual([12, 12]);
    process.env.MAESTRO_MATCH_MEMO = '0';
    expect(await review(p2)).toEqual(fresh);
  });

  it('a damaged row is a miss, and the run keeps only the rows its latest matching asked for', async () => {
    const p = await refreshed();
    const [r] = rows(p);
    // Stored deflated: the JSON of a trace and its matches, several times smaller.
    expect(unpack(r.value)).toMatchObject({ trace: expect.any(Array), matches: expect.any(Array) });
    expect(r.value.length * 2).toBeLessThan(inflateRawSync(r.value).length);
    const db = openStore(p.layout).db;
    // Bytes that do not hash to the row's sha256, then bytes that hash right but do not inflate.
    db.prepare('UPDATE mmemo_matches SET value = ? WHERE key = ?').run(Buffer.from('{"trace":'), r.key);
    expect(runMatchMemo(p.layout, r.run)?.get(r.key)).toBeNull();
    const junk = Buffer.from('not deflated');
    db.prepare('UPDATE mmemo_matches SET value = ?, sha256 = ? WHERE key = ?').run(junk, sha256(junk), r.key);
    expect(runMatchMemo(p.layout, r.run)?.get(r.key)).toBeNull();
    openStore(p.layout)
      .db.prepare('INSERT INTO mmemo_matches (run, key, value, sha256) VALUES (?, ?, ?, ?)')
      .run(r.run, 'orphan', deflateRawSync('{}'), sha256(deflateRawSync('{}')));
    editImages(p);
    const first = await review(p);
    expect(rows(p).map((x) => x.key)).not.toContain('orphan');
    expect(rows(p).length).toBe(2);
    process.env.MAESTRO_MATCH_MEMO = '0';
    expect(await review(p)).toEqual(first);
  });
});
