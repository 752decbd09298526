import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { candidateId } from '@maestro/core';
import { type CliRun, copyDir, runMaestroAsync, tmpDir } from '@maestro/test-utils';
import { expect, test } from 'vitest';

// Issue 17: "no verdict, search result or output changes because of the store". The read commands
// run on copies of real-world corpora (../shared/corpora/real-world, never edited in place) in three
// states — the first run (nothing derived: `.workflow/.index` removed), again with everything warm,
// and with a damaged `.workflow/.index/maestro.db` — and their JSON must be the same in all three.
// stderr (parse warnings, the store's own warnings) is not compared. Two projects × three states ×
// ten commands keep it near 40 s on two shared cores.
const CORPUS = resolve(import.meta.dirname, '../../shared/corpora/real-world');
/** The two largest projects: Chinese and English text, 238 and 150 entries, many knowhow documents. */
const PROJECTS = ['Smith-106__Intelligent-Trading-System', 'catlog22__pi-maestro-flow'];
const NOW = '2026-10-01T00:00:00.000Z';
const S = '20261001-equivalence';
const R = '20261001-001-equivalence';
const AT = '2026-09-30T00:00:00.000Z';
const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

interface Entry {
  id: string;
  title: string;
  status: string;
  content?: string;
}

/**
 * Fields that describe the derived state itself rather than the answer: how the search index was
 * found (`fresh`, `rebuilt`, persisted or not) and whether the exposure log could be appended.
 */
const STATE_FIELDS = new Set(['index', 'exposure_recorded', 'warnings']);

interface Audit {
  usage?: { exposure?: unknown };
  notes?: string[];
}

/**
 * Every recorded search and context call appends to the exposure history (`.workflow/.index/search/`),
 * a log, not state derived from the text files: the audit's exposure statistics therefore grow from
 * one state to the next whatever the store does. They are left out; below 50 events (at most a
 * dozen per state here: a 3-result search and one context) no exposure finding can appear, so
 * findings and counts are still compared whole.
 */
function withoutExposure(audit: Audit): Audit {
  const usage = { ...audit.usage };
  delete usage.exposure;
  return { ...audit, usage, notes: (audit.notes ?? []).filter((n) => !/exposure/.test(n)) };
}

/** Up to five `path: expected → got` lines where two JSON values differ. */
function differences(want: unknown, got: unknown, path = '$', out: string[] = []): string[] {
  if (out.length >= 5) return out;
  if (want && got && typeof want === 'object' && typeof got === 'object') {
    const keys = new Set([...Object.keys(want), ...Object.keys(got)]);
    for (const k of keys) {
      differences((want as Record<string, unknown>)[k], (got as Record<string, unknown>)[k], `${path}.${k}`, out);
    }
  } else if (JSON.stringify(want) !== JSON.stringify(got)) {
    out.push(`${path}: ${JSON.stringify(want)?.slice(0, 200)} → ${JSON.stringify(got)?.slice(0, 200)}`);
  }
  return out;
}

function masked(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(masked);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (!STATE_FIELDS.has(k)) out[k] = masked(x);
    return out;
  }
  return v;
}

async function maestro(root: string, args: string[], ok = [0]): Promise<CliRun> {
  const r = await runMaestroAsync([...args, '--json', '--workflow-root', root], { env: { MAESTRO_NOW: NOW } });
  if (!ok.includes(r.code)) throw new Error(`maestro ${args.join(' ')} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

function candidate(content: string) {
  return {
    candidate_id: candidateId('spec', content),
    target: 'spec',
    action: 'propose',
    title: content.slice(0, 60),
    content,
    category: 'arch',
    source_kind: 'manual',
    evidence_refs: [`run:${R}`],
    occurrences: 1,
    first_recorded_at: AT,
    last_recorded_at: AT,
    status: 'pending',
    promoted_id: null,
  };
}

/** A sealed run with three candidates: a copy of an entry, an edited copy, and a new rule. */
function stageSession(root: string, content: string): void {
  const dir = join(root, '.workflow/sessions', S);
  mkdirSync(join(dir, 'runs', R), { recursive: true });
  const lifecycle = { sealed_at: null, seal_summary: null, promoted_spec_ids: [], promoted_knowhow_ids: [] };
  writeFileSync(
    join(dir, 'session.json'),
    json({
      schema_version: 'maestro-session/1.0',
      session_id: S,
      title: 'equivalence',
      status: 'running',
      created_at: AT,
      updated_at: AT,
      revision: 0,
      lifecycle,
    }),
  );
  writeFileSync(
    join(dir, 'runs', R, 'run.json'),
    json({
      schema_version: 'maestro-run/1.0',
      run_id: R,
      session_id: S,
      command: 'equivalence',
      status: 'sealed',
      created_at: AT,
      updated_at: AT,
      completed_at: AT,
      sealed_at: AT,
      summary: null,
      revision: 0,
    }),
  );
  const words = content.split(/\s+/);
  const candidates = [
    candidate(content),
    candidate(`${words.slice(1).join(' ')} Also keep it documented.`),
    candidate('Every release tag is signed by the release manager before the changelog is published.'),
  ];
  writeFileSync(
    join(dir, 'runs', R, 'knowledge-delta.json'),
    json({
      schema_version: 'run-knowledge-delta/1.0',
      session_id: S,
      run_id: R,
      revision: 1,
      created_at: AT,
      updated_at: AT,
      inputs: [],
      candidates,
    }),
  );
}

/** The read commands of one project, in a fixed order; returns each command's masked JSON. */
async function readAll(root: string, probe: { sid: string; knowhow: string | null; title: string; words: string }) {
  const out: Record<string, unknown> = {};
  const stderr: string[] = [];
  const add = async (name: string, args: string[], ok?: number[]) => {
    const r = await maestro(root, args, ok);
    stderr.push(r.stderr);
    out[name] = masked(r.json());
  };
  // Relevance order: the balanced page's exploration slot follows the exposure history. The long
  // page is read-only (it records no exposure), the short one records its three results.
  await add('search', ['search', ...probe.words.split(' '), '--mode', 'relevance', '--limit', '20', '--read-only']);
  await add('search (recorded)', ['search', ...probe.words.split(' '), '--mode', 'relevance', '--limit', '3']);
  await add('context', ['context', probe.title, '--user-root', join(root, '..', 'no-user-packs')]);
  await add('load --id', ['load', '--id', [probe.sid, probe.knowhow].filter(Boolean).join(',')]);
  await add('spec show', ['spec', 'show', probe.sid]);
  rmSync(join(root, '.workflow/sessions', S, 'runs', R, 'knowledge-reconciliation.json'), { force: true });
  await add('review --refresh', ['knowledge', 'review', S, '--refresh']);
  await add('review', ['knowledge', 'review', S]);
  await add('gate', ['knowledge', 'gate', '--all', '--max-pending-review', '100'], [0, 1]);
  await add('audit', ['knowledge', 'audit']);
  out.audit = withoutExposure(out.audit as Audit);
  await add('spec health', ['spec', 'health']);
  return { out, stderr: stderr.join('\n') };
}

const garbage = (n: number, seed: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7919 + seed) & 255));

/** Damages the store one of two ways; creates a damaged file when there is none yet. */
function damage(root: string, kind: number): string {
  const index = join(root, '.workflow/.index');
  mkdirSync(index, { recursive: true });
  const db = join(index, 'maestro.db');
  if (!existsSync(db)) writeFileSync(db, garbage(8192, kind));
  if (kind === 0) {
    const fd = openSync(db, 'r+');
    writeSync(fd, garbage(100, 1), 0, 100, 0);
    closeSync(fd);
    return 'random bytes over the header';
  }
  truncateSync(db, Math.floor(statSync(db).size / 3));
  writeFileSync(`${db}-wal`, garbage(64 * 1024, 3));
  return 'truncated, with a WAL file of garbage';
}

async function pool<T>(items: T[], n: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i] as T, i);
      }
    }),
  );
}

test('read commands answer the same without .index/, with a warm store, and with a damaged store', async () => {
  const base = tmpDir('maestro-store-equivalence-');
  const failures: string[] = [];
  await pool(PROJECTS, 2, async (name, i) => {
    const root = join(base, name);
    copyDir(join(CORPUS, name), root);
    mkdirSync(join(base, 'no-user-packs'), { recursive: true });
    const listed = (await maestro(root, ['spec', 'list'])).json<{ entries: Entry[] }>().entries;
    const active = listed.filter((e) => e.status === 'active');
    const pick = active[Math.floor(active.length / 2)] ?? listed[0];
    if (!pick) throw new Error(`${name}: no spec entries`);
    const shown = (await maestro(root, ['spec', 'show', pick.id])).json<{ entry: Entry }>().entry;
    const knowhow = (await maestro(root, ['knowhow', 'list'])).json<{ entries: Entry[] }>().entries;
    const words = pick.title.split(/\s+/).slice(0, 3).join(' ');
    stageSession(root, shown.content ?? pick.title);
    rmSync(join(root, '.workflow/.index'), { recursive: true, force: true });
    const probe = {
      sid: pick.id,
      knowhow: knowhow.find((k) => k.status === 'active')?.id ?? null,
      title: pick.title,
      words,
    };

    const { out: first } = await readAll(root, probe);
    const { out: warm } = await readAll(root, probe);
    const usesStore = existsSync(join(root, '.workflow/.index/maestro.db'));
    const how = damage(root, i % 2);
    const { out: damaged, stderr } = await readAll(root, probe);
    for (const [state, got] of [
      ['warm', warm],
      [`with a damaged store (${how})`, damaged],
    ] as const) {
      for (const command of Object.keys(first)) {
        const diff = differences(first[command], got[command]);
        if (diff.length > 0) failures.push(`${name}: ${command} ${state}:\n  ${diff.join('\n  ')}`);
      }
    }
    if (usesStore) {
      // The store saw the damage: the file was moved aside and rebuilt.
      const index = readdirSync(join(root, '.workflow/.index'));
      if (!index.some((f) => f.startsWith('maestro.db.damaged-')))
        failures.push(`${name}: damaged store not moved aside`);
      // ... and the user heard about it (the command that found it prints the store's warning).
      if (!/derived-state store .* damaged/.test(stderr))
        failures.push(`${name}: the damaged store was not reported on stderr`);
    }
  });
  expect(failures).toEqual([]);
}, 240_000);
