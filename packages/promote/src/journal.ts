import { mkdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { environmentError, type Runtime, sha256 } from '@maestro/core';
import {
  assertLocksHeld,
  crashPoint,
  fsyncDir,
  type LockOptions,
  readIntent,
  readTextIfExists,
  refuseNonFileTargets,
  type WorkflowLayout,
  withLocks,
  writeFileAtomic,
  writeJsonAtomic,
} from '@maestro/fs';
import { PROMOTE_INTENT_FILE } from './intent-file.js';
import { applyFilePlan } from './ops.js';
import type { PromotionPlan } from './plan.js';
import { type PromotedEntry, type PromotionIntentMeta, PromotionIntentMetaSchema } from './schemas.js';

/**
 * The promotion journal: `.workflow/.promote-commit.intent.json`, written before any corpus file
 * (a `maestro-commit-intent/1.0` holding the small files' final bytes and, for spec files, only
 * their operations; its `meta` holds every file's operations and the reported outcomes). One
 * recovery direction: forward.
 */
export { PROMOTE_INTENT_FILE };

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
 *
 * The intent (a `maestro-commit-intent/1.0`, as @maestro/fs writes them) holds the final bytes of
 * the small files (run ledgers, `session.json`, knowhow documents) and, for spec files, only the
 * operations (`meta.files[].ops`, with the sha256 of the text they apply to): a spec file of many
 * megabytes is not copied into the journal. Its final bytes are a pure function of that text and
 * those operations, so recovery rebuilds them exactly (and re-applies the operations on top of
 * whatever another writer left, as for every file).
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
  const intentPath = promoteIntentPath(layout);
  const kinds = new Map(plan.files.map((f) => [f.path, f.kind]));
  const at = runtime.now().toISOString();
  const intent = {
    schema_version: 'maestro-commit-intent/1.0' as const,
    id: sha256(`${intentPath}\u0000${at}\u0000${plan.writes.map((w) => w.path).join('\u0000')}`).slice(0, 16),
    created_at: at,
    writes: plan.writes.map((w) =>
      kinds.get(w.path) === 'spec'
        ? { path: w.path, replay: 'ops' as const }
        : { path: w.path, sha256: sha256(w.content), content: w.content },
    ),
    meta,
  };
  await withLocks(
    targets,
    async () => {
      refuseNonFileTargets(targets);
      await writeJsonAtomic(intentPath, intent);
      crashPoint('promote:after-intent');
      for (const [i, w] of plan.writes.entries()) {
        await writeFileAtomic(targets[i], w.content);
        crashPoint(`promote:after-file-${i + 1}`);
      }
      clearIntent(intentPath);
    },
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
  const intent = readIntent<PromotionIntentMeta>(path) as PromotionIntent | null;
  if (!intent) return null;
  const parsed = PromotionIntentMetaSchema.safeParse(intent.meta);
  const damaged =
    !parsed.success ||
    intent.writes.some((w) =>
      'replay' in w
        ? w.replay !== 'ops' || !parsed.data.files.some((f) => f.path === w.path)
        : typeof w.content !== 'string' || sha256(w.content) !== w.sha256,
    );
  if (!parsed.success || damaged) {
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
        const plan = meta.files.find((f) => f.path === w.path);
        let next: string | null;
        if ('replay' in w) {
          // Only the operations were journaled: they rebuild the planned bytes from the planned
          // text, and re-apply on top of any other text (a no-op where they are already there).
          next = plan ? applyFilePlan(plan, current, meta.at) : current;
        } else if (currentSha === w.sha256) next = current;
        else {
          const asPlanned = !plan || currentSha === plan.before_sha256;
          next = asPlanned ? w.content : applyFilePlan(plan, current, meta.at);
        }
        if (next !== null && next !== current) {
          await writeFileAtomic(targets[i], next);
          written.push(w.path);
        }
        crashPoint(`promote-recover:after-file-${i + 1}`);
      }
    },
    lock,
  );
  clearIntent(path);
  return { intentId: intent.id, sessionId: meta.session_id, promoted: meta.promoted, files: written };
}

/** A promotion intent: small files' final bytes, spec files' operations only (`replay: 'ops'`). */
interface PromotionIntent {
  schema_version: 'maestro-commit-intent/1.0';
  id: string;
  created_at: string;
  writes: ({ path: string; sha256: string; content: string } | { path: string; replay: 'ops' })[];
  meta: unknown;
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
