import { copyFileSync } from 'node:fs';
import { relative } from 'node:path';
import { compactDate, isMaestroError, MaestroError, parseJsonText, type Runtime } from '@maestro/core';
import { readTextIfExists, type WorkflowLayout, withLock, writeFileAtomic } from '@maestro/fs';
import { runPaths } from '@maestro/ledger';
import { type Receipt, ReceiptSchema } from '../schemas.js';
import { columnsJson, entryColumnsOf, type HashColumns } from './entry-text.js';

/** A receipt that is not valid JSON or not a `knowledge-reconciliation/1.0` receipt (exit 2). */
export class ReceiptCorruptError extends MaestroError {
  constructor(file: string, sessionId: string, problem: string, line?: number, column?: number) {
    super('RECEIPT_CORRUPT', `reconciliation receipt ${file} is damaged: ${problem}`, {
      exitCode: 2,
      hint: `run \`maestro knowledge review ${sessionId} --refresh\` to regenerate it (the damaged file is kept beside it as .corrupt-<time>)`,
      location: { file, ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}) },
      details: { session_id: sessionId, problem },
    });
    this.name = 'ReceiptCorruptError';
  }
}

export function receiptPath(layout: WorkflowLayout, sessionId: string, runId: string): string {
  return runPaths(layout, sessionId, runId).receipt;
}

function display(layout: WorkflowLayout, path: string): string {
  return relative(layout.root, path) || path;
}

/**
 * A run's receipt, or null when there is none. A damaged one throws `ReceiptCorruptError`
 * naming the file (and line for JSON syntax errors). Any `matcher_revision` reads fine: it is a
 * freshness fence, compared by `checkFreshness`, never validated here.
 */
export function readReceipt(layout: WorkflowLayout, sessionId: string, runId: string): Receipt | null {
  const path = receiptPath(layout, sessionId, runId);
  const text = readTextIfExists(path);
  return text === null ? null : parseReceiptText(layout, sessionId, path, text);
}

/** A receipt file's text parsed and checked (`ReceiptCorruptError` naming the file when damaged). */
export function parseReceiptText(layout: WorkflowLayout, sessionId: string, path: string, text: string): Receipt {
  const file = display(layout, path);
  let json: unknown;
  try {
    json = parseJsonText(text, file);
  } catch (err) {
    const loc = isMaestroError(err) ? err.location : undefined;
    const message = (err as Error).message.replace(`${file}:`, '').replace(/^\d+:\d+: /, '');
    const where =
      loc?.line !== undefined ? ` (line ${loc.line}${loc.column !== undefined ? `, column ${loc.column}` : ''})` : '';
    throw new ReceiptCorruptError(file, sessionId, `${message}${where}`, loc?.line, loc?.column);
  }
  const parsed = parseReceipt(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ReceiptCorruptError(file, sessionId, `${first.path.join('.') || '(root)'}: ${first.message}`);
  }
  return parsed.data;
}

const ENTRY_HASH = /^[a-f0-9]{16}$/;

/** Hash records this process built from stored 16-hex hashes (see `vouchedEntryHashes`): not checked again. */
const vouched = new WeakSet<object>();

/**
 * Marks a record of entry hashes built by this process from hashes that are 16 hex by
 * construction (the match section's rows): writing a receipt with it skips the check of every
 * member (100,000 in a large corpus). The record must not be changed afterwards.
 */
export function vouchedEntryHashes<T extends Record<string, string>>(record: T): T {
  vouched.add(record);
  return record;
}

/** True when `v` is a plain object of 16-hex strings (what `corpus_entries` must be). */
function entryHashRecord(v: unknown): v is Record<string, string> {
  if (typeof v === 'object' && v !== null && vouched.has(v)) return true;
  if (typeof v !== 'object' || v === null || Array.isArray(v) || Object.getPrototypeOf(v) !== Object.prototype) {
    return false;
  }
  for (const k in v) {
    const h = (v as Record<string, unknown>)[k];
    if (typeof h !== 'string' || !ENTRY_HASH.test(h)) return false;
  }
  return true;
}

const FIELDS = Object.keys(ReceiptSchema.shape);

/**
 * `ReceiptSchema.safeParse`, with the per-entry hashes (one per corpus entry: 100,000 in a large
 * corpus) checked by a plain loop rather than member by member through the schema. The result is
 * the schema's (keys in its order); anything the loop does not accept goes through the schema
 * whole, so errors read as before.
 */
function parseReceipt(json: unknown): ReturnType<typeof ReceiptSchema.safeParse> {
  if (typeof json === 'object' && json !== null && 'corpus_entries' in json) {
    const { corpus_entries: entries, ...rest } = json as Record<string, unknown>;
    if (entryHashRecord(entries)) {
      const parsed = ReceiptSchema.safeParse(rest);
      if (parsed.success) {
        const out: Record<string, unknown> = {};
        for (const k of FIELDS) {
          if (k === 'corpus_entries') out[k] = entries;
          else if (k in parsed.data) out[k] = (parsed.data as Record<string, unknown>)[k];
        }
        return { success: true, data: out as Receipt } as ReturnType<typeof ReceiptSchema.safeParse>;
      }
    }
  }
  return ReceiptSchema.safeParse(json);
}

/** Stands for `corpus_entries` while the rest of a receipt is serialised (see `columnsText`). */
const ENTRIES_MARK = '\u0000maestro:corpus_entries\u0000';

/**
 * The receipt's text when its `corpus_entries` are still columns (`entryColumnsOf`): the rest is
 * checked and serialised as `serializeReceipt` does, and the entries are written from the columns
 * in place of a mark, to the same bytes. Null when the rest does not pass the schema (the caller
 * then goes the record's way, whose error reads as before).
 */
function columnsText(receipt: Receipt, cols: HashColumns): string | null {
  const rest: Record<string, unknown> = {};
  for (const k of Object.keys(receipt)) if (k !== 'corpus_entries') rest[k] = receipt[k as keyof Receipt];
  const parsed = ReceiptSchema.safeParse(rest);
  if (!parsed.success) return null;
  const out: Record<string, unknown> = {};
  for (const k of FIELDS) {
    if (k === 'corpus_entries') out[k] = ENTRIES_MARK;
    else if (k in parsed.data) out[k] = (parsed.data as Record<string, unknown>)[k];
  }
  const text = JSON.stringify(out, null, 2);
  const needle = `\n  "corpus_entries": ${JSON.stringify(ENTRIES_MARK)}`;
  const at = text.indexOf(needle);
  if (at < 0) return null;
  return `${text.slice(0, at)}\n  "corpus_entries": ${columnsJson(cols)}${text.slice(at + needle.length)}\n`;
}

export function serializeReceipt(receipt: Receipt): string {
  const cols = entryColumnsOf(receipt);
  const fast = cols ? columnsText(receipt, cols) : null;
  if (fast !== null) return fast;
  const parsed = parseReceipt(receipt);
  if (!parsed.success) ReceiptSchema.parse(receipt); // throws the schema's error
  return `${JSON.stringify(parsed.data, null, 2)}\n`;
}

/** Writes a receipt atomically under `<receipt>.lock`; returns the text written. */
export async function writeReceipt(layout: WorkflowLayout, receipt: Receipt): Promise<string> {
  const path = receiptPath(layout, receipt.session_id, receipt.run_id);
  const text = serializeReceipt(receipt);
  await withLock(path, () => writeFileAtomic(path, text));
  return text;
}

/**
 * Moves a damaged receipt's bytes aside (`<file>.corrupt-<time>`) before it is regenerated, so
 * nothing a person may have written into it is lost.
 */
export function keepCorruptCopy(layout: WorkflowLayout, sessionId: string, runId: string, runtime: Runtime): string {
  const path = receiptPath(layout, sessionId, runId);
  const stamp = `${compactDate(runtime.now())}-${runtime.now().toISOString().slice(11, 19).replace(/:/g, '')}`;
  const copy = `${path}.corrupt-${stamp}`;
  copyFileSync(path, copy);
  return display(layout, copy);
}
