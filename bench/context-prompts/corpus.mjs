// Lists the knowledge entries of one corpus project through the built maestro CLI, the way a user would
// (`spec list --include-deprecated --json`, `knowhow list --json`), on a temporary copy of the project's
// workflow root so the read-only corpus is never touched.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export const CORPUS = process.env.MAESTRO_CORPUS ?? '/work/shared/corpora/real-world';
// The repository's own build when present, else the lead's checkout (the labels were listed with it).
const candidates = [resolve(here, '../../apps/maestro/dist/main.js'), '/work/main/apps/maestro/dist/main.js'];
export const CLI = process.env.MAESTRO_BIN ?? candidates.find((p) => existsSync(p)) ?? candidates[0];

function listJson(args, root) {
  if (!existsSync(CLI)) throw new Error(`maestro CLI not found at ${CLI}: run pnpm build or set MAESTRO_BIN`);
  const out = execFileSync(process.execPath, [CLI, ...args, '--json', '--workflow-root', root], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out).entries;
}

/** Map id → {id, file, title, status, store} for the workflow root `root` ("" = the folder) of `project`. */
export function listEntries(project, root) {
  const source = join(CORPUS, project, root, '.workflow');
  if (!existsSync(source)) throw new Error(`${project}: no .workflow/ under root "${root}" (${source})`);
  const copy = mkdtempSync(join(tmpdir(), 'context-prompts-'));
  try {
    cpSync(source, join(copy, '.workflow'), { recursive: true });
    const entries = [
      ...listJson(['spec', 'list', '--include-deprecated'], copy),
      ...listJson(['knowhow', 'list'], copy),
    ];
    const byId = new Map();
    const prefix = root === '' ? '.workflow/' : `${root}/.workflow/`;
    for (const e of entries) {
      byId.set(e.id, { id: e.id, file: prefix + e.file, title: e.title, status: e.status, store: e.store });
    }
    return byId;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
