import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { appendAll, sha256 } from '@maestro/core';
import { writeFileAtomic, writeJsonAtomic } from './atomic.js';
import { readJsonIfExists } from './read.js';
import { assertMayWrite } from './write-guard.js';

export interface BackupManifest {
  schema_version: 'maestro-backup/1.0';
  created_at: string;
  reason: string;
  files: { path: string; sha256: string }[];
}

const MANIFEST = 'backup-manifest.json';

/**
 * Copies each file (paths relative to `root`) into `backupDir` under the same relative path and
 * writes a manifest with each file's hash. Missing files are skipped.
 */
export async function backupFiles(
  root: string,
  paths: readonly string[],
  backupDir: string,
  meta: { createdAt: string; reason: string },
): Promise<BackupManifest> {
  const files: BackupManifest['files'] = [];
  for (const rel of [...new Set(paths)].sort()) {
    const src = join(root, rel);
    if (!existsSync(src)) continue;
    const dest = join(backupDir, rel);
    assertMayWrite(dest);
    mkdirSync(dirname(dest), { recursive: true });
    copyFileSync(src, dest);
    files.push({ path: rel, sha256: sha256(readFileSync(src)) });
  }
  const manifest: BackupManifest = {
    schema_version: 'maestro-backup/1.0',
    created_at: meta.createdAt,
    reason: meta.reason,
    files,
  };
  await writeJsonAtomic(join(backupDir, MANIFEST), manifest);
  return manifest;
}

export function readBackupManifest(backupDir: string): BackupManifest | null {
  return readJsonIfExists(join(backupDir, MANIFEST)) as BackupManifest | null;
}

/** Puts every backed-up file back, atomically per file. Returns the restored relative paths. */
export async function restoreFiles(root: string, backupDir: string, paths?: readonly string[]): Promise<string[]> {
  const manifest = readBackupManifest(backupDir);
  const list = paths ?? manifest?.files.map((f) => f.path) ?? listFiles(backupDir);
  for (const rel of list) await writeFileAtomic(join(root, rel), readFileSync(join(backupDir, rel)));
  return [...list];
}

function listFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const abs = join(dir, name);
    if (statSync(abs).isDirectory()) appendAll(out, listFiles(abs, base));
    else if (name !== MANIFEST) out.push(relative(base, abs));
  }
  return out.sort();
}
