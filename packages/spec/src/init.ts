import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type WorkflowLayout, withCorpusLock, writeFileAtomic } from '@maestro/fs';
import { SEED_FILES, seedFileText } from './seeds.js';

export interface InitResult {
  root: string;
  created: string[];
  existing: string[];
  /** Existing files that gained lines (a `.gitignore` from an older init). */
  updated: string[];
}

/**
 * What a team does not commit: derived state (`.index/`, rebuilt by any command), lock files, and
 * backups (`.trash/`: old bytes git already has, restorable only on the machine that made them).
 * The audit log (`.knowledge-audit/`) is committed: it is the team's record of what was pruned and why.
 */
export const GITIGNORE_LINES = ['.index/', '*.lock', '.trash/'] as const;

const GITIGNORE = `# maestro: derived state, locks and local backups (the audit log in .knowledge-audit/ is committed)\n${GITIGNORE_LINES.join('\n')}\n`;

/** The lines of GITIGNORE_LINES an existing .gitignore lacks (a line negated with `!` counts as a choice). */
export function missingIgnoreLines(text: string): string[] {
  const have = new Set(text.split(/\r?\n/).map((l) => l.trim().replace(/^!/, '')));
  return GITIGNORE_LINES.filter((l) => !have.has(l));
}

/**
 * Creates the `.workflow/` skeleton: seed spec files, `knowhow/`, `sessions/` and a .gitignore
 * for derived state. Never overwrites a file that exists; a rerun reports everything as existing.
 * This is the only command that creates seed files (reads never do).
 */
export async function initWorkflow(layout: WorkflowLayout): Promise<InitResult> {
  const created: string[] = [];
  const existing: string[] = [];
  const updated: string[] = [];
  mkdirSync(layout.workflow, { recursive: true });
  await withCorpusLock(layout, async () => {
    for (const dir of [layout.specs, layout.knowhow, layout.sessions]) {
      const rel = `${dir.slice(layout.workflow.length + 1)}/`;
      if (existsSync(dir)) existing.push(rel);
      else {
        mkdirSync(dir, { recursive: true });
        created.push(rel);
      }
    }
    const files: [string, string][] = [
      ...SEED_FILES.map((s): [string, string] => [join(layout.specs, s.file), seedFileText(s)]),
      [join(layout.workflow, '.gitignore'), GITIGNORE],
    ];
    for (const [path, text] of files) {
      const rel = path.slice(layout.workflow.length + 1);
      if (existsSync(path)) existing.push(rel);
      else {
        await writeFileAtomic(path, text);
        created.push(rel);
      }
    }
    if (existing.includes('.gitignore') && (await completeGitignore(join(layout.workflow, '.gitignore')))) {
      updated.push('.gitignore');
    }
  });
  return { root: layout.root, created, existing, updated };
}

/** Appends the lines an older init did not write; every line already there stays as it is. */
async function completeGitignore(path: string): Promise<boolean> {
  const text = readFileSync(path, 'utf8');
  const missing = missingIgnoreLines(text);
  if (missing.length === 0) return false;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const sep = text === '' || text.endsWith('\n') ? '' : eol;
  await writeFileAtomic(path, `${text}${sep}${missing.join(eol)}${eol}`);
  return true;
}
