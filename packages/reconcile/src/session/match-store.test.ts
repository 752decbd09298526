import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixedRuntime } from '@maestro/core';
import { type WorkflowLayout, workflowLayout } from '@maestro/fs';
import { loadCorpus } from '@maestro/spec';
import { closeStores, openStore } from '@maestro/store';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { reconcile } from '../matcher/reconcile.js';
import type { CandidateInput } from '../matcher/types.js';
import { corpusFingerprintSync } from '../receipt/fingerprint.js';
import { corpusEntryHashes } from '../receipt/revalidate.js';
import { matchingCorpus, targetsOf, useMatchStore } from './corpus-cache.js';
import { casesOf, matchSectionRows, newProcess, SETS } from './match.fixture.js';
import { reconcileSession } from './reconcile-session.js';
import { forgetCurrentCorpus } from './revalidate-run.js';

const sets = readdirSync(SETS).filter((n) => !n.endsWith('.md'));
const NOW = '2026-12-01T00:00:00.000Z';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

afterEach(() => {
  useMatchStore(true);
  forgetCurrentCorpus();
  closeStores();
});

/** A labelled set staged by its own stage.mjs: corpus + one session with one sealed run. */
function stage(name: string): { root: string; layout: WorkflowLayout; session: string; run: string } {
  const root = mkdtempSync(join(tmpdir(), `maestro-match-${name}-`));
  roots.push(root);
  execFileSync(process.execPath, [join(SETS, name, 'stage.mjs'), root], { stdio: 'ignore' });
  const layout = workflowLayout(root);
  const session = readdirSync(layout.sessions)[0];
  const run = readdirSync(join(layout.sessions, session, 'runs'))[0];
  return { root, layout, session, run };
}

async function receiptAfterRefresh(p: ReturnType<typeof stage>): Promise<string> {
  const path = join(p.layout.sessions, p.session, 'runs', p.run, 'knowledge-reconciliation.json');
  rmSync(path, { force: true });
  newProcess();
  await reconcileSession(p.layout, p.session, { refresh: true }, fixedRuntime(NOW));
  return readFileSync(path, 'utf8');
}

/** The match section's rows as this file compares them: without the content hash, each entry's terms sorted. */
function dumpSection(layout: WorkflowLayout) {
  const { files, rows, terms, meta } = matchSectionRows(layout);
  return {
    files,
    rows: rows.map(({ sha256: _sha, terms: t, ...row }) => ({ ...row, terms: t.map((list) => [...list].sort()) })),
    terms,
    meta,
  };
}

describe('the match section gives the verdicts of the in-memory index', () => {
  for (const name of sets) {
    it(`${name}: receipts from a cold store, a warm store and the in-memory path are byte-identical`, async () => {
      const p = stage(name);
      rmSync(p.layout.index, { recursive: true, force: true });
      const cold = await receiptAfterRefresh(p);
      const warm = await receiptAfterRefresh(p);
      useMatchStore(false);
      const memory = await receiptAfterRefresh(p);
      expect(JSON.parse(cold).candidates.length).toBeGreaterThan(10);
      expect(warm).toBe(cold);
      expect(memory).toBe(cold);
    }, 120_000);
  }

  it('a cold review leaves the spec section current: the rows a corpus load would save', async () => {
    const p = stage('reconcile-v1');
    rmSync(p.layout.index, { recursive: true, force: true });
    await receiptAfterRefresh(p);
    const dump = () => {
      const { db } = openStore(p.layout);
      const files = db
        .prepare(
          'SELECT path, sha256, size, utf8, entries, default_category, issues, parse_issues, hex(spots) AS spots FROM spec_files ORDER BY path',
        )
        .all();
      const ids = db
        .prepare(
          'SELECT i.id, f.path, i.pos FROM spec_ids i JOIN spec_files f ON f.num = i.file ORDER BY i.id, f.path, i.pos',
        )
        .all();
      const links = db
        .prepare(
          'SELECT l.target, f.path, l.pos FROM spec_links l JOIN spec_files f ON f.num = l.file ORDER BY 1, 2, 3',
        )
        .all();
      return { files, ids, links };
    };
    const afterReview = dump();
    const corpusFiles = readdirSync(p.layout.specs).length + readdirSync(p.layout.knowhow).length;
    expect(afterReview.files.length).toBe(corpusFiles);
    expect(afterReview.ids.length).toBeGreaterThan(50);
    newProcess();
    rmSync(p.layout.index, { recursive: true, force: true });
    loadCorpus(p.layout);
    newProcess();
    expect(dump()).toEqual(afterReview);
  }, 120_000);

  it('matches every case with and without seeds, and after one-file changes re-derives that file only', async () => {
    const name = 'reconcile-v1';
    const p = stage(name);
    const cases = casesOf(name);
    const memoryVerdicts = (seeds: string[]) => reconcile(cases, loadCorpus(p.layout), { seeds, now: NOW });
    const check = async (expectParsed: number | null) => {
      newProcess();
      const fp = corpusFingerprintSync(p.layout).fingerprint;
      const m = await matchingCorpus(p.layout, fp);
      expect(m.source).toBe('store');
      if (expectParsed !== null) expect(m.parsed).toBe(expectParsed);
      const corpus = loadCorpus(p.layout);
      // Seeds that reach supersession chains and refs exercise the back-links.
      const seeds = corpus.entries.filter((e) => e.supersedes.length || e.supersededBy || e.ref).map((e) => e.id);
      for (const s of [[], seeds.slice(0, 6)]) {
        expect(reconcile(cases, m.index, { seeds: s, now: NOW })).toEqual(memoryVerdicts(s));
      }
      const targets = targetsOf(corpus);
      expect(m.entryHashes()).toEqual(corpusEntryHashes(targets));
      for (const [id, t] of targets) expect(m.targets.get(id)).toEqual(t);
      expect(m.targets.get('S-00000000-none')).toBeUndefined();
      return dumpSection(p.layout);
    };
    const rebuilt = async () => {
      newProcess();
      rmSync(p.layout.index, { recursive: true, force: true });
      return check(null);
    };
    await check(null);
    expect((await check(0)).rows.reduce((n, r) => n + r.entries, 0)).toBe(loadCorpus(p.layout).entries.length);

    const spec = join(p.layout.specs, readdirSync(p.layout.specs).sort()[0]);
    const firstSid = /sid="([^"]+)"/.exec(readFileSync(spec, 'utf8'))?.[1] as string;
    const knowhow = readdirSync(p.layout.knowhow).sort();
    const changes: [string, () => void, number][] = [
      [
        'an entry appended to a spec file',
        () =>
          appendFileSync(
            spec,
            '\n<spec-entry category="arch" keywords="cache" date="2026-06-30">\n\n### Cache keys\n\nCache keys always carry the tenant id and a version prefix.\n\n</spec-entry>\n',
          ),
        1,
      ],
      [
        'a copy of an existing sid in another file (renamed to ~2)',
        () =>
          appendFileSync(
            join(p.layout.specs, readdirSync(p.layout.specs).sort()[1]),
            `\n<spec-entry category="arch" sid="${firstSid}" date="2026-06-30">\n\n### Copy\n\nA second entry that reuses a sid already taken.\n\n</spec-entry>\n`,
          ),
        1,
      ],
      [
        'a knowhow document superseded by a file stem',
        () =>
          writeFileSync(
            join(p.layout.knowhow, 'zz-old-note.md'),
            `---\ntitle: Old note\ntype: tip\nstatus: deprecated\nsupersededBy: ${knowhow[0].replace(/\.md$/, '')}\n---\n\nRetry webhooks three times with backoff.\n`,
          ),
        1,
      ],
      ['a knowhow document removed', () => rmSync(join(p.layout.knowhow, knowhow[1])), 0],
      [
        'an entry inserted at the top of a spec file (positions shift)',
        () => {
          const text = readFileSync(spec, 'utf8');
          const at = text.indexOf('<spec-entry');
          writeFileSync(
            spec,
            `${text.slice(0, at)}<spec-entry category="arch" date="2026-06-30">\n\n### Inserted\n\nLog every retry with its attempt number.\n\n</spec-entry>\n\n${text.slice(at)}`,
          );
        },
        1,
      ],
    ];
    for (const [what, change, parsed] of changes) {
      change();
      const incremental = await check(parsed);
      expect(incremental, what).toEqual(await rebuilt());
    }
    // The corpus-wide passes were exercised: a renamed copy, a knowhow link resolved from a file stem.
    const after = loadCorpus(p.layout);
    expect(after.entries.some((e) => e.id === `${firstSid}~2`)).toBe(true);
    const old = after.entries.find((e) => e.file === 'knowhow/zz-old-note.md');
    expect(old?.supersededBy).toMatch(/^knowhow-/);
    expect(old?.supersededBy).not.toBe(knowhow[0].replace(/\.md$/, ''));
  }, 300_000);

  it('a re-derived file row takes the place of the row it replaces (no copy left free in the file)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'maestro-match-pages-'));
    roots.push(root);
    const layout = workflowLayout(root);
    mkdirSync(layout.specs, { recursive: true });
    mkdirSync(layout.knowhow, { recursive: true });
    const entryText = (i: number) =>
      `<spec-entry category="arch" keywords="k${i % 50}" date="2026-05-01" title="Rule ${i} about caches and queues">\n\n### Rule ${i} about caches and queues\n\nEvery worker ${i} keeps its queue ${i % 97} beside the cache ${i % 89}.\n\n</spec-entry>\n`;
    const head = '---\ntitle: "Architecture"\ncategory: arch\n---\n\n# Architecture\n\n## Entries\n\n';
    const spec = join(layout.specs, 'architecture-constraints.md');
    writeFileSync(spec, head + Array.from({ length: 4000 }, (_, i) => entryText(i)).join('\n'));
    const sync = async () => {
      newProcess();
      const m = await matchingCorpus(layout, corpusFingerprintSync(layout).fingerprint);
      expect(m.source).toBe('store');
      const { db } = openStore(layout);
      const row = db
        .prepare('SELECT length(dir) + length(body) + length(hashes) + length(terms) AS n FROM match_files')
        .get() as { n: number };
      const free =
        Number(db.pragma('freelist_count', { simple: true })) * Number(db.pragma('page_size', { simple: true }));
      return { row: row.n, free, parsed: m.parsed };
    };
    expect((await sync()).parsed).toBe(1);
    appendFileSync(spec, `\n${entryText(4000)}`);
    const after = await sync();
    expect(after.parsed).toBe(1);
    expect(after.row).toBeGreaterThan(200_000);
    expect(after.free).toBeLessThan(after.row / 4);
  }, 120_000);

  it('an index kept by a long-lived process knows when the rows changed under it', async () => {
    const p = stage('quill');
    const before = await matchingCorpus(p.layout, corpusFingerprintSync(p.layout).fingerprint);
    expect(before.current()).toBe(true);
    const spec = join(p.layout.specs, readdirSync(p.layout.specs).sort()[0]);
    appendFileSync(
      spec,
      '\n<spec-entry category="arch" date="2026-06-30">\n\n### Late\n\nA late rule.\n\n</spec-entry>\n',
    );
    const after = await matchingCorpus(p.layout, corpusFingerprintSync(p.layout).fingerprint);
    expect(after.parsed).toBe(1);
    expect(before.current()).toBe(false);
    expect(after.current()).toBe(true);
  }, 120_000);

  it('a candidate that retrieves little by its terms falls back to title trigrams, as in memory', async () => {
    const p = stage('harbor');
    const corpus = loadCorpus(p.layout);
    const title = corpus.entries.find((e) => e.status === 'active' && e.title.length > 12)?.title as string;
    const cands: CandidateInput[] = [
      { candidate_id: 'T1', target: 'spec', title: `${title}s`, content: 'Zqxv blorft wumple.' },
      { candidate_id: 'T2', target: 'knowhow', title, content: 'Frobnicate the quux.' },
    ];
    const m = await matchingCorpus(p.layout, corpusFingerprintSync(p.layout).fingerprint);
    expect(m.source).toBe('store');
    const fromStore = reconcile(cands, m.index, { now: NOW });
    expect(fromStore).toEqual(reconcile(cands, corpus, { now: NOW }));
    expect(fromStore.some((v) => v.matches.length > 0)).toBe(true);
  }, 120_000);
});
