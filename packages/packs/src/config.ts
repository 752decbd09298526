import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { inputError, parseJsonText } from '@maestro/core';
import { z } from 'zod';
import { tryReadHead } from './frontmatter.js';

export const PacksConfig = z
  .strictObject({
    trusted_workspaces: z
      .array(z.string().min(1))
      .optional()
      .describe('project or .agents/knowledge directories whose workspace packs are trusted'),
    org_roots: z.array(z.string().min(1)).optional().describe('organisation scope roots, scanned after the user scope'),
    disabled: z.array(z.string().min(1)).optional().describe('packs never used: <name> or <name>@<scope>'),
  })
  .describe('User configuration of knowledge packs (~/.config/maestro/packs.json)');

export interface PacksConfigValues {
  /** Absolute paths. */
  trustedWorkspaces: string[];
  orgRoots: string[];
  disabled: string[];
  /** The file read, or null when there is none. */
  file: string | null;
}

export { defaultConfigPath } from './config-path.js';

/**
 * Reads the user's pack configuration. A missing file is an empty configuration; a malformed
 * one is bad input naming the file and the field (nothing is guessed). Relative paths resolve
 * from the file's directory, `~/` from the home directory.
 */
export function loadPacksConfig(path: string, env: NodeJS.ProcessEnv = process.env): PacksConfigValues {
  if (!existsSync(path)) return { trustedWorkspaces: [], orgRoots: [], disabled: [], file: null };
  const head = tryReadHead(path, 1024 * 1024);
  if (head === null || head.truncated) {
    throw inputError('PACKS_CONFIG_INVALID', `${path}: ${head ? 'larger than 1 MB' : 'not a readable regular file'}`, {
      hint: 'the packs config is a small JSON file',
      location: { file: path },
    });
  }
  const data = parseJsonText(head.text.replace(/^\uFEFF/, ''), path);
  const parsed = PacksConfig.safeParse(data);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const field = first.path.map(String).join('.') || '(root)';
    throw inputError('PACKS_CONFIG_INVALID', `${path}: ${field}: ${first.message}`, {
      hint: 'expected {"trusted_workspaces": [dir...], "org_roots": [dir...], "disabled": ["name" or "name@scope"...]}',
      location: { file: path },
    });
  }
  const home = env.HOME || homedir();
  const abs = (p: string) =>
    p.startsWith('~/') ? join(home, p.slice(2)) : isAbsolute(p) ? p : resolve(dirname(path), p);
  return {
    trustedWorkspaces: (parsed.data.trusted_workspaces ?? []).map(abs),
    orgRoots: (parsed.data.org_roots ?? []).map(abs),
    disabled: parsed.data.disabled ?? [],
    file: path,
  };
}
