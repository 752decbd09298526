import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { WorkflowLayout } from '@maestro/fs';
import { closeStores, openStore } from '@maestro/store';
import type { CandidateInput } from '../matcher/types.js';
import { decode, decodeTerms } from './match-rows.js';
import { forgetCurrentCorpus } from './revalidate-run.js';

/** Test fixtures of the match section: the labelled sets, a fresh process, the stored rows made comparable. */

export const SETS = resolve(import.meta.dirname, '../../../../bench/reconcile-sets');

/** A labelled set's cases as candidates (ids C0, C1, …). */
export function casesOf(name: string): CandidateInput[] {
  return readFileSync(join(SETS, name, 'cases.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l))
    .map((c, i) => ({ ...c, candidate_id: `C${i}` }));
}

/** A fresh process as far as derived state goes: stores closed, nothing kept in module caches. */
export function newProcess() {
  forgetCurrentCorpus();
  closeStores();
}

/**
 * Every stored row of the match section, with file and term ids replaced by paths and terms
 * (comparable across stores): file rows sorted by path (each entry's terms in stored order), the
 * terms in use with their frequency and postings, and the section's meta but its generation.
 */
export function matchSectionRows(layout: WorkflowLayout) {
  const { db } = openStore(layout);
  const fileRows = db
    .prepare('SELECT file_id, path, sha256, entries, dir, body, hashes, terms FROM match_files')
    .all() as {
    file_id: number;
    path: string;
    sha256: string;
    entries: number;
    dir: string;
    body: string;
    hashes: Buffer;
    terms: Buffer;
  }[];
  const files = new Map(fileRows.map((f) => [f.file_id, f.path]));
  const where = (key: number) => `${files.get(Math.floor(key / 2 ** 22))}#${key % 2 ** 22}`;
  const names = new Map(
    (db.prepare('SELECT term_id, term FROM match_terms').all() as { term_id: number; term: string }[]).map((t) => [
      t.term_id,
      t.term,
    ]),
  );
  const rows = fileRows
    .map((f) => ({
      path: f.path,
      sha256: f.sha256,
      entries: f.entries,
      dir: JSON.parse(f.dir),
      body: JSON.parse(f.body),
      hashes: f.hashes.toString('hex'),
      terms: decodeTerms(f.terms, f.entries).map((ids) => ids.map((id) => names.get(id))),
    }))
    .sort((a, b) => a.path.localeCompare(b.path));
  const terms = (db.prepare('SELECT term, df, docs FROM match_terms WHERE df > 0').all() as Record<string, unknown>[])
    .map((t) => ({
      term: t.term,
      df: t.df,
      docs: decode(t.docs as Buffer)
        .map(where)
        .sort(),
    }))
    .sort((a, b) => String(a.term).localeCompare(String(b.term)));
  const meta = db.prepare("SELECT * FROM match_meta WHERE name != 'generation'").all();
  return { files: [...files.values()].sort(), rows, terms, meta };
}
