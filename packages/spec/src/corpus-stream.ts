import type { Issue } from '@maestro/core';
import { decode } from './corpus-files.js';
import { KeysWriter } from './corpus-keys.js';
import { ByteRanges, type EntrySpot } from './corpus-pack.js';
import { type EncodedSpecRow, linkValues, SPOT_BYTES, scanSpecRows, spotOf, writeSpot } from './corpus-store.js';
import { knowhowEntry, parseKnowhowFile } from './knowhow-file.js';
import type { KnowledgeEntry } from './model.js';

/** What an entry sink is told of an entry: the entry and where it sits (see `EntrySpot`). */
export type EntrySink = (e: KnowledgeEntry, spot: EntrySpot) => void;

/** One corpus file streamed by `streamCorpusFileRows`: its `spec` row and what its parse found besides. */
export interface StreamedCorpusFile {
  /** The row `encodeSpecRow` makes of `parseCorpusFileRows`' rows. */
  spec: EncodedSpecRow;
  /** The text the parse decoded and whether the bytes were valid UTF-8. */
  text: string;
  utf8: boolean;
  /** Every entry's spot, in file order. */
  spots: EntrySpot[];
  issues: Issue[];
  defaultCategory: string | null;
}

/**
 * `parseCorpusFileRows` of one file with its entries handed one by one to the sink `open` gives
 * (once the text is decoded) instead of kept: the entries of a large file are not all held at
 * once, only what its `spec` row needs of each (its spot, id and link values). The entries, their
 * order, the issues and the row are those of `parseCorpusFileRows`.
 */
export function streamCorpusFileRows(
  file: string,
  buf: Buffer,
  hash: string,
  open: (text: string, utf8: boolean) => EntrySink,
): StreamedCorpusFile {
  const issues: Issue[] = [];
  const { text, utf8 } = decode(buf, file, issues);
  const sink = open(text, utf8);
  const spots: EntrySpot[] = [];
  // The row's spots, encoded as they come (`encodeSpots`), and its keys (`encodeKeys`).
  let encoded = Buffer.alloc(SPOT_BYTES * 64);
  const keys = new KeysWriter();
  const ranges = new ByteRanges(text);
  const take = (e: KnowledgeEntry, spot: EntrySpot, range: [number, number] | null) => {
    if ((spots.length + 1) * SPOT_BYTES > encoded.length) {
      const grown = Buffer.alloc(encoded.length * 2);
      encoded.copy(grown);
      encoded = grown;
    }
    writeSpot(encoded, spots.length, spotOf(e, spot, range));
    spots.push(spot);
    keys.add(e.id, linkValues(e));
    sink(e, spot);
  };
  let parseIssues = 0;
  let defaultCategory: string | null = null;
  if (file.startsWith('knowhow/')) {
    const parsed = parseKnowhowFile(text, `.workflow/${file}`);
    for (const i of parsed.issues) issues.push(i);
    take(knowhowEntry(parsed.value, file, issues), { offset: 0, line: null, end: null }, null);
  } else {
    // Byte ranges only for a valid UTF-8 file (the rows keep no text otherwise: see `spotsOfParsed`).
    const scanned = scanSpecRows(text, file, undefined, (e, spot) => take(e, spot, utf8 ? ranges.next(spot) : null));
    for (const i of scanned.issues) issues.push(i);
    parseIssues = issues.length - (scanned.issues.length - scanned.parseIssues);
    defaultCategory = scanned.defaultCategory;
  }
  const spec: EncodedSpecRow = {
    path: file,
    sha256: hash,
    size: buf.length,
    utf8,
    entries: spots.length,
    defaultCategory,
    issues: JSON.stringify(issues),
    parseIssues,
    spots: exact(encoded, spots.length * SPOT_BYTES),
    keys: keys.encoded(),
  };
  return { spec, text, utf8, spots, issues, defaultCategory };
}

/** The first `n` bytes of `buf` in a buffer of their own (not a slice of a shared pool). */
function exact(buf: Buffer, n: number): Buffer {
  const out = Buffer.alloc(n);
  buf.copy(out, 0, 0, n);
  return out;
}
