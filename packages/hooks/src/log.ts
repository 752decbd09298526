import { appendFileSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** `.workflow/.index/hooks.log`: why a hook said nothing (derived state; delete it any time). */
export const hookLogPath = (workflowDir: string) => join(workflowDir, '.index', 'hooks.log');

/**
 * Appends one line saying why a hook failed (a hook fails open: it prints nothing and exits 0).
 * Only when `.workflow/` is a directory (a hook never creates one); never throws.
 */
export function logHookFailure(workflowDir: string, now: Date, line: string): string | null {
  try {
    if (!statSync(workflowDir).isDirectory()) return null;
    const path = hookLogPath(workflowDir);
    mkdirSync(join(workflowDir, '.index'), { recursive: true });
    appendFileSync(path, `${now.toISOString()} ${line.replace(/\s*\n\s*/g, ' ')}\n`);
    return path;
  } catch {
    return null;
  }
}
