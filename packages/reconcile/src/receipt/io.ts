import { copyFileSync } from 'node:fs';
import { relative } from 'node:path';
import { compactDate, isMaestroError, MaestroError, parseJsonText, type Runtime } from '@maestro/core';
import { readTextIfExists, type WorkflowLayout, withLock, writeFileAtomic } from '@maestro/fs';
import { runPaths } from '@maestro/ledger';
import { type Receipt, ReceiptSchema } from '../schemas.js';

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
  if (text === null) return null;
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
  const parsed = ReceiptSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ReceiptCorruptError(file, sessionId, `${first.path.join('.') || '(root)'}: ${first.message}`);
  }
  return parsed.data;
}

export function serializeReceipt(receipt: Receipt): string {
  return `${JSON.stringify(ReceiptSchema.parse(receipt), null, 2)}\n`;
}

/** Writes a receipt atomically under `<receipt>.lock`. */
export async function writeReceipt(layout: WorkflowLayout, receipt: Receipt): Promise<void> {
  const path = receiptPath(layout, receipt.session_id, receipt.run_id);
  await withLock(path, () => writeFileAtomic(path, serializeReceipt(receipt)));
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
