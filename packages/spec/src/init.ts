import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type WorkflowLayout, withCorpusLock, writeFileAtomic } from '@maestro/fs';
import { SEED_FILES, seedFileText } from './seeds.js';

export interface InitResult {
  root: string;
  created: string[];
  existing: string[];
}

const GITIGNORE = '# derived, rebuildable state (maestro)\n.index/\n*.lock\n';

/**
 * Creates the `.workflow/` skeleton: seed spec files, `knowhow/`, `sessions/` and a .gitignore
 * for derived state. Never overwrites a file that exists; a rerun reports everything as existing.
 * This is the only command that creates seed files (reads never do).
 */
export async function initWorkflow(layout: WorkflowLayout): Promise<InitResult> {
  const created: string[] = [];
  const existing: string[] = [];
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
  });
  return { root: layout.root, created, existing };
}
