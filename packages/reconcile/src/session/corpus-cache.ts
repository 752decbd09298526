import type { WorkflowLayout } from '@maestro/fs';
import { type Corpus, loadCorpus } from '@maestro/spec';
import { buildIndex, type MatchIndex, memoryIndex } from '../matcher/corpus-index.js';
import { corpusState, lastCorpusState, releaseCorpusBytes } from '../receipt/fingerprint.js';
import { corpusDelta, corpusEntryHashes } from '../receipt/revalidate.js';
import type { CorpusDelta } from '../schemas.js';
import { columnsAfter, columnsDelta, type EntryColumns, entryRecord, sortedColumns } from './entry-columns.js';
import type { TargetInfo, TargetLookup } from './match-rows.js';
import { syncMatchSection } from './match-store.js';

export type { TargetInfo, TargetLookup } from './match-rows.js';

/** The corpus as reconciliation uses it: the retrieval index and every entry's current state. */
export interface MatchingCorpus {
  index: MatchIndex;
  targets: TargetLookup;
  /** Every entry's receipt hash by id, in id order (what `corpus_entries` of a receipt holds). */
  entryHashes(): Record<string, string>;
  /** Added, changed and removed ids from a receipt's recorded entry hashes to these (ids sorted). */
  entryDelta(before: EntryColumns): CorpusDelta;
  /**
   * `entryDelta`, and the current entry hashes as columns in id order built from it (see
   * `columnsAfter`); undefined where the corpus is held in memory.
   */
  entryDeltaColumns?(before: EntryColumns): { delta: CorpusDelta; after: () => EntryColumns };
  /** False when the rows it reads have changed since (a long-lived process must build it again). */
  current(): boolean;
  /** How many corpus files were parsed for it (0: the stored rows were current). */
  parsed: number;
  /** `store`: rows of `.workflow/.index/maestro.db`; `memory`: parsed and indexed in this process. */
  source: 'store' | 'memory';
}

let storeEnabled = true;

/**
 * Whether a revalidated receipt's entry hashes are built as columns from the old receipt's and the
 * delta, and written from them (`MAESTRO_RECEIPT_COLUMNS=0` builds the record from every current
 * id instead, for comparison; the bytes are the same).
 */
function receiptColumns(): boolean {
  return process.env.MAESTRO_RECEIPT_COLUMNS !== '0';
}

/** Whether `matchingCorpus` uses the store (tests turn it off to compare with the in-memory path). */
export function useMatchStore(enabled: boolean): void {
  storeEnabled = enabled;
}

/** Whether derived state is used (`useMatchStore`): the receipt memo follows the same switch. */
export function matchStoreEnabled(): boolean {
  return storeEnabled;
}

/**
 * The matching corpus for a corpus state, from the derived-state store's `match` section: only
 * files whose content hash moved since the section was last brought up to date are parsed and
 * indexed, and matching then reads the postings and rows it needs. When the store cannot hold the
 * rows (busy past its timeout, unwritable) or the corpus moved after `fingerprint` was taken, the
 * corpus is parsed and indexed in memory instead: the same verdicts, at the cost of a full parse.
 */
export async function matchingCorpus(layout: WorkflowLayout, fingerprint: string): Promise<MatchingCorpus> {
  const state = storeEnabled ? (lastCorpusState(layout, fingerprint) ?? corpusState(layout)) : null;
  const synced = state?.fingerprint === fingerprint ? await syncMatchSection(layout, state) : null;
  releaseCorpusBytes();
  if (synced) {
    const { index, parsed } = synced;
    return {
      index,
      targets: index.targets(),
      entryHashes: () => index.entryHashes(),
      entryDelta: (before) => columnsDelta(before, index.entryHashSource()),
      ...(receiptColumns()
        ? {
            entryDeltaColumns: (before: EntryColumns) => {
              const source = index.entryHashSource();
              const positions = new Int32Array(before.ids.length);
              const delta = columnsDelta(before, source, positions);
              return { delta, after: () => columnsAfter(before, delta, positions, source) ?? sortedColumns(source) };
            },
          }
        : {}),
      current: () => index.current(),
      parsed,
      source: 'store',
    };
  }
  return memoryMatchingCorpus(loadCorpus(layout));
}

/** The matching corpus of a loaded corpus, held in memory (the path without a store). */
export function memoryMatchingCorpus(corpus: Corpus): MatchingCorpus {
  const targets = targetsOf(corpus);
  return {
    index: memoryIndex(buildIndex(corpus.entries)),
    targets,
    entryHashes: () => corpusEntryHashes(targets),
    entryDelta: (before) => corpusDelta(entryRecord(before), corpusEntryHashes(targets)),
    current: () => true,
    parsed: corpus.files.length,
    source: 'memory',
  };
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
