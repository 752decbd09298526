import { join } from 'node:path';
import { readTextIfExists, type WorkflowLayout, writeFileAtomic } from '@maestro/fs';
import { type Corpus, loadCorpus } from '@maestro/spec';
import { buildIndex, type CorpusIndex } from '../matcher/corpus-index.js';
import { MATCHER_REVISION } from '../matcher/reconcile.js';
import type { MatchableEntry } from '../matcher/types.js';
import { corpusFingerprintSync } from '../receipt/fingerprint.js';

/** What a corpus entry means to review and carry-over, deprecated entries included. */
export interface TargetInfo {
  status: string;
  contentHash: string;
  title: string;
  file: string;
  line: number | null;
  supersededBy: string | null;
}

/** The corpus as reconciliation uses it: the retrieval index and every entry's current state. */
export interface MatchingCorpus {
  index: CorpusIndex;
  targets: Map<string, TargetInfo>;
  /** True when the corpus files were parsed (no usable cached index). */
  parsed: boolean;
}

export const INDEX_CACHE = 'reconcile-index.json';
const SCHEMA = 'reconcile-index/1.0';

type Row = [
  string,
  MatchableEntry['store'],
  string,
  string,
  string,
  number | null,
  string,
  string[],
  string | null,
  string | null,
];
type TargetRow = [string, string, string, string, string, number | null, string | null];

interface CachedIndex {
  schema_version: typeof SCHEMA;
  fingerprint: string;
  matcher_revision: string;
  docs: Row[];
  postings: Record<string, number[]>;
  exact: string[];
  titles: string[];
  targets: TargetRow[];
}

/**
 * The matching corpus for a corpus state: read from `.workflow/.index/reconcile-index.json` when
 * it was built for this fingerprint and matcher revision, otherwise parsed once with
 * `loadCorpus`, indexed, and cached (derived state: safe to delete, rebuilt on demand).
 */
export async function matchingCorpus(layout: WorkflowLayout, fingerprint: string): Promise<MatchingCorpus> {
  const path = join(layout.index, INDEX_CACHE);
  const cached = readCache(path, fingerprint);
  if (cached) return cached;
  const corpus = loadCorpus(layout);
  const built: MatchingCorpus = { index: buildIndex(corpus.entries), targets: targetsOf(corpus), parsed: true };
  // Only cache what is known to match the fingerprint: the corpus must not have moved meanwhile.
  if (corpusFingerprintSync(layout).fingerprint === fingerprint) await saveCache(path, fingerprint, built);
  return built;
}

export function targetsOf(corpus: Corpus): Map<string, TargetInfo> {
  return new Map(
    corpus.entries.map((e) => [
      e.id,
      {
        status: e.status,
        contentHash: e.contentHash,
        title: e.title,
        file: e.file,
        line: e.line,
        supersededBy: e.supersededBy,
      },
    ]),
  );
}

function readCache(path: string, fingerprint: string): MatchingCorpus | null {
  let raw: CachedIndex;
  try {
    const text = readTextIfExists(path);
    if (text === null) return null;
    raw = JSON.parse(text) as CachedIndex;
  } catch {
    return null; // derived state: rebuilt below
  }
  if (raw?.schema_version !== SCHEMA || raw.fingerprint !== fingerprint || raw.matcher_revision !== MATCHER_REVISION) {
    return null;
  }
  const entries: MatchableEntry[] = raw.docs.map(
    ([id, store, title, content, file, line, contentHash, supersedes, supersededBy, ref]) => ({
      id,
      store,
      title,
      content,
      file,
      line,
      contentHash,
      supersedes,
      supersededBy,
      ref,
      status: 'active',
    }),
  );
  const index = buildIndex(entries, {
    postings: new Map(Object.entries(raw.postings)),
    exact: raw.exact,
    titles: raw.titles,
  });
  const targets = new Map(
    raw.targets.map(([id, status, contentHash, title, file, line, supersededBy]) => [
      id,
      { status, contentHash, title, file, line, supersededBy },
    ]),
  );
  return { index, targets, parsed: false };
}

async function saveCache(path: string, fingerprint: string, m: MatchingCorpus): Promise<void> {
  const docs: Row[] = m.index.docs.map(({ entry: e }) => [
    e.id,
    e.store,
    e.title ?? '',
    e.content,
    e.file ?? '',
    e.line ?? null,
    e.contentHash ?? '',
    [...(e.supersedes ?? [])],
    e.supersededBy ?? null,
    e.ref ?? null,
  ]);
  const targets: TargetRow[] = [...m.targets].map(([id, t]) => [
    id,
    t.status,
    t.contentHash,
    t.title,
    t.file,
    t.line,
    t.supersededBy,
  ]);
  const body: CachedIndex = {
    schema_version: SCHEMA,
    fingerprint,
    matcher_revision: MATCHER_REVISION,
    docs,
    postings: Object.fromEntries(m.index.postings),
    exact: m.index.docs.map((d) => d.exact),
    titles: m.index.docs.map((d) => d.titleKey),
    targets,
  };
  try {
    await writeFileAtomic(path, JSON.stringify(body));
  } catch {
    // derived state: without it the next command parses the corpus again
  }
}
