import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { refusedError } from '@maestro/core';
import type { WorkflowLayout } from './layout.js';

/** The opt-in for writing through a `.workflow` link that leaves the project root. */
export const ALLOW_EXTERNAL_WORKFLOW_ENV = 'MAESTRO_ALLOW_EXTERNAL_WORKFLOW';

/** Set when this process's `.workflow/` resolves outside its project root and writing there is not allowed. */
let refused: { workflow: string; target: string; root: string } | null = null;

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function inside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (rel.split(sep)[0] !== '..' && !isAbsolute(rel));
}

/**
 * Decides, once per process (the CLI calls it when it builds the layout), whether writes under
 * `.workflow/` are allowed: they are unless `.workflow` (or a link inside the path to it)
 * resolves outside the project root — a cloned repository whose `.workflow` points at another
 * directory must not get files written there by the per-prompt hook or a write command — and the
 * user did not opt in with `MAESTRO_ALLOW_EXTERNAL_WORKFLOW=1`. Reading through the link is fine.
 */
export function guardWorkflowWrites(layout: WorkflowLayout, allow: boolean): void {
  refused = null;
  if (allow) return;
  const root = realOrNull(layout.root);
  const target = realOrNull(layout.workflow);
  if (root === null || target === null || inside(target, root)) return;
  refused = { workflow: layout.workflow, target, root: layout.root };
}

/**
 * Throws `WORKFLOW_OUTSIDE_PROJECT` (exit 1) when `path` lies under a `.workflow/` that leaves the
 * project root and the user has not opted in. Every writer of the fs layer calls it.
 */
export function assertMayWrite(path: string): void {
  if (refused === null) return;
  const abs = resolve(path);
  if (abs !== refused.workflow && !abs.startsWith(refused.workflow + sep)) return;
  throw refusedError(
    'WORKFLOW_OUTSIDE_PROJECT',
    `refusing to write ${abs}: ${refused.workflow} is a link to ${refused.target}, outside the project root ${refused.root}`,
    {
      hint: `if you trust that directory, rerun with ${ALLOW_EXTERNAL_WORKFLOW_ENV}=1; reading through the link needs nothing`,
      details: { workflow: refused.workflow, target: refused.target, root: refused.root },
    },
  );
}
