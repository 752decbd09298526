import type { WorkflowLayout } from './layout.js';
import { type LockOptions, withLock } from './lock.js';

/**
 * Runs `fn` under the project-wide corpus lock, `.workflow/.knowledge-corpus.namespace.lock`,
 * the same file maestro-flow takes, so the two tools exclude each other on a shared `.workflow/`.
 */
export function withCorpusLock<T>(layout: WorkflowLayout, fn: () => Promise<T> | T, options?: LockOptions): Promise<T> {
  return withLock(layout.corpusLockTarget, fn, options);
}
