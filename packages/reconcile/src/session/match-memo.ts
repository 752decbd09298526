import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { sha256 } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { openStore, type SectionSpec, tryWrite } from '@maestro/store';
import { MATCHER_REVISION } from '../matcher/reconcile.js';
import type { MatchMemo, MemoRow } from '../matcher/trace.js';
import { matchStoreEnabled } from './corpus-cache.js';

/**
 * Derived state (store section `mmemo`): each run's candidates' matches with the trace of what
 * they were worked out from (see `TracingIndex`), by the sha256 of the candidate's text, action
 * and linked documents, stored deflated (the JSON of traces and matches shrinks about fivefold,
 * which keeps `.index/` within the corpus's size). A row is trusted only when the current index
 * answers its trace as it did then, and its stored bytes hash to its sha256, inflate and parse;
 * anything else is a miss. A run's rows not
 * asked for by its latest matching are dropped. `MAESTRO_MATCH_MEMO=0` matches everything again.
 */
export const MATCH_MEMO_SECTION: SectionSpec = {
  name: 'mmemo',
  revision: `2+${MATCHER_REVISION}`,
  ddl: [
    `CREATE TABLE mmemo_matches (
       run TEXT NOT NULL,
       key TEXT NOT NULL,
       value BLOB NOT NULL,
       sha256 TEXT NOT NULL,
       PRIMARY KEY (run, key)
     )`,
  ],
};

export function matchMemoEnabled(): boolean {
  return matchStoreEnabled() && process.env.MAESTRO_MATCH_MEMO !== '0';
}

/** A run's memo, read in one query; `save` writes what was added and drops what was not asked for. */
export interface RunMatchMemo extends MatchMemo {
  save(): void;
}

/** Fast deflate: the rows are written on every refresh; the size, not the last few bytes, matters. */
const DEFLATE = { level: 4 };

function parseRow(value: Uint8Array, sha: string): MemoRow | null {
  if (!(value instanceof Uint8Array) || sha256(value) !== sha) return null;
  try {
    const row = JSON.parse(inflateRawSync(value).toString('utf8')) as MemoRow;
    if (!Array.isArray(row.trace) || typeof row.digest !== 'string' || !Array.isArray(row.matches)) return null;
    return row;
  } catch {
    return null;
  }
}

/** The memo of one run (`<session>/<run>`), or null when the store is off or cannot be opened. */
export function runMatchMemo(layout: WorkflowLayout, run: string): RunMatchMemo | null {
  if (!matchMemoEnabled()) return null;
  let rows = new Map<string, { value: Uint8Array; sha256: string }>();
  const store = (() => {
    try {
      const s = openStore(layout);
      s.section(MATCH_MEMO_SECTION);
      const got = s.prepare('SELECT key, value, sha256 FROM mmemo_matches WHERE run = ?').all(run) as {
        key: string;
        value: Uint8Array;
        sha256: string;
      }[];
      rows = new Map(got.map((r) => [r.key, r]));
      return s;
    } catch {
      return null;
    }
  })();
  if (!store) return null;
  const asked = new Set<string>();
  const added = new Map<string, Buffer>();
  return {
    get(key) {
      asked.add(key);
      const r = rows.get(key);
      return r ? parseRow(r.value, r.sha256) : null;
    },
    put(key, row) {
      asked.add(key);
      added.set(key, deflateRawSync(JSON.stringify(row), DEFLATE));
    },
    save() {
      const gone = [...rows.keys()].filter((k) => !asked.has(k));
      if (added.size === 0 && gone.length === 0) return;
      tryWrite(store, () => {
        const del = store.prepare('DELETE FROM mmemo_matches WHERE run = ? AND key = ?');
        for (const k of gone) del.run(run, k);
        const put = store.prepare('INSERT OR REPLACE INTO mmemo_matches (run, key, value, sha256) VALUES (?, ?, ?, ?)');
        for (const [k, v] of added) put.run(run, k, v, sha256(v));
      });
    },
  };
}
