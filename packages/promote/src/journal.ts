import { mkdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { environmentError, type Runtime, sha256 } from '@maestro/core';
import {
  assertLocksHeld,
  commitFiles,
  crashPoint,
  fsyncDir,
  type LockOptions,
  readIntent,
  readTextIfExists,
  type WorkflowLayout,
  withLocks,
  writeFileAtomic,
} from '@maestro/fs';
import { applyFilePlan } from './ops.js';
import type { PromotionPlan } from './plan.js';
import { type PromotedEntry, type PromotionIntentMeta, PromotionIntentMetaSchema } from './schemas.js';

/**
 * The promotion journal: `.workflow/.promote-commit.intent.json`, written before any corpus file
 * (a `maestro-commit-intent/1.0` from @maestro/fs holding every file's final bytes; its `meta`
 * holds our per-file operations and the reported outcomes). One recovery direction: forward.
 */
export const PROMOTE_INTENT_FILE = '.promote-commit.intent.json';

export function promoteIntentPath(layout: WorkflowLayout): string {
  return join(layout.workflow, PROMOTE_INTENT_FILE);
}

function ensureDirs(layout: WorkflowLayout, paths: readonly string[]): string[] {
  const abs = paths.map((p) => join(layout.workflow, p));
  for (const a of abs) mkdirSync(dirname(a), { recursive: true });
  return abs;
}

/**
 * Writes the intent, then each file, then removes the intent. The caller holds the corpus lock
 * and the ledger/session locks; the corpus files' own locks are taken here.
 * Crash points: `promote:after-intent`, `promote:after-file-<n>` (1-based, in commit order).
 */
export async function commitPromotion(
  layout: WorkflowLayout,
  plan: PromotionPlan,
  meta: PromotionIntentMeta,
  runtime: Runtime,
  lock?: LockOptions,
): Promise<void> {
  const targets = ensureDirs(
    layout,
    plan.writes.map((w) => w.path),
  );
  await withLocks(
    targets,
    () => commitFiles(layout.workflow, promoteIntentPath(layout), plan.writes, meta, runtime, 'promote'),
    lock,
  );
}

export interface RecoveredPromotion {
  intentId: string;
  sessionId: string;
  promoted: PromotedEntry[];
  /** Files this recovery wrote, relative to `.workflow/`. */
  files: string[];
}

/**
 * Completes an interrupted promotion (the caller holds the corpus lock). A file already holding
 * its final bytes is left alone; one still as planned gets the journaled bytes; one that another
 * writer changed since gets the promotion's operations re-applied on top, so nothing that writer
 * did is lost. Crash points: `promote-recover:after-file-<n>`.
 */
export async function recoverPromotion(layout: WorkflowLayout, lock?: LockOptions): Promise<RecoveredPromotion | null> {
  const path = promoteIntentPath(layout);
  const intent = readIntent<PromotionIntentMeta>(path);
  if (!intent) return null;
  const parsed = PromotionIntentMetaSchema.safeParse(intent.meta);
  if (!parsed.success || intent.writes.some((w) => sha256(w.content) !== w.sha256)) {
    throw environmentError('INTENT_DAMAGED', `promotion intent ${path} is damaged`, {
      hint: 'if no maestro process is running, move it aside and run `maestro knowledge review <session> --refresh`',
      location: { file: path },
    });
  }
  const meta = parsed.data;
  const written: string[] = [];
  const targets = ensureDirs(
    layout,
    intent.writes.map((w) => w.path),
  );
  await withLocks(
    targets,
    async () => {
      for (const [i, w] of intent.writes.entries()) {
        const current = readTextIfExists(targets[i]);
        const currentSha = current === null ? null : sha256(current);
        if (currentSha !== w.sha256) {
          const plan = meta.files.find((f) => f.path === w.path);
          const asPlanned = !plan || currentSha === plan.before_sha256;
          const next = asPlanned ? w.content : applyFilePlan(plan, current, meta.at);
          if (next !== current) {
            await writeFileAtomic(targets[i], next);
            written.push(w.path);
          }
        }
        crashPoint(`promote-recover:after-file-${i + 1}`);
      }
    },
    lock,
  );
  clearIntent(path);
  return { intentId: intent.id, sessionId: meta.session_id, promoted: meta.promoted, files: written };
}

function clearIntent(path: string): void {
  assertLocksHeld(path);
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fsyncDir(dirname(path));
}
