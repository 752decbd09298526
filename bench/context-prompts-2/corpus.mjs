// Lists a project's entries with the built maestro CLI, as a user would, on a temporary copy of its
// workflow root (the corpus itself is never touched). Used by build.mjs and validate.mjs.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const checkout = resolve(here, '../..');

export const CORPUS = process.env.MAESTRO_CORPUS ?? '/work/shared/corpora/real-world';

export function maestroBin() {
  if (process.env.MAESTRO_BIN) return process.env.MAESTRO_BIN;
  const local = join(checkout, 'apps/maestro/dist/main.js');
  return existsSync(local) ? local : '/work/main/apps/maestro/dist/main.js';
}

function runJson(bin, args) {
  const out = execFileSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out);
}

/** Map id -> {id, file (relative to the project folder), title, status, store} for one project root. */
export function listEntries(project, root) {
  const src = join(CORPUS, project, root, '.workflow');
  if (!existsSync(src)) throw new Error(`no workflow directory at ${src}`);
  const tmp = mkdtempSync(join(tmpdir(), 'ctx-prompts-2-'));
  try {
    cpSync(src, join(tmp, '.workflow'), { recursive: true });
    const bin = maestroBin();
    const specs = runJson(bin, ['spec', 'list', '--include-deprecated', '--json', '--workflow-root', tmp]);
    const knowhow = runJson(bin, ['knowhow', 'list', '--json', '--workflow-root', tmp]);
    const map = new Map();
    for (const e of [...specs.entries, ...knowhow.entries]) {
      map.set(e.id, {
        id: e.id,
        file: posix.join(root, '.workflow', e.file),
        title: e.title,
        status: e.status,
        store: e.store,
      });
    }
    return map;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

// Run directly: print a project's listing, e.g. `node corpus.mjs Smith-106__LD-Notion ""`.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [project, root = ''] = process.argv.slice(2);
  if (!project) {
    process.stderr.write('usage: node corpus.mjs <project> [root]\n');
    process.exit(2);
  }
  for (const e of listEntries(project, root).values()) {
    process.stdout.write(`${e.id}\t${e.status}\t${e.file}\t${e.title}\n`);
  }
}
