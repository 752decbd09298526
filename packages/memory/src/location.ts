import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { inputError, sha256, slugify } from '@maestro/core';

/** Agent names are one path segment: letters, digits, `.`, `_`, `-`; not `.` or `..`. */
export const AGENT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const DEFAULT_AGENT = 'default';

/** Where one agent's memory for one project lives, and how it was chosen. */
export interface MemoryLocation {
  /** The memory base: `$MAESTRO_MEMORY_DIR`, else `$XDG_DATA_HOME/maestro/memory`, else `~/.local/share/maestro/memory`. */
  base: string;
  /** `<slug of the project folder name>-<16 hex of sha256(realpath of the project root)>`. */
  projectKey: string;
  agent: string;
  /** `<base>/<projectKey>/<agent>`: the store directory (mode 0700). */
  dir: string;
  /** The records file (mode 0600). */
  records: string;
  /** The rules file (mode 0600). */
  rules: string;
}

/** The agent from `--agent`, else `MAESTRO_AGENT`, else `default`; refused (exit 2) unless one safe path segment. */
export function resolveAgent(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const agent = flag ?? (env.MAESTRO_AGENT?.trim() || DEFAULT_AGENT);
  if (!AGENT_PATTERN.test(agent) || agent === '.' || agent === '..' || agent.includes('..')) {
    throw inputError('INVALID_AGENT', `agent name "${agent}" is not allowed`, {
      hint: 'use letters, digits, ".", "_" or "-" (at most 64), e.g. --agent claude-code',
    });
  }
  return agent;
}

/** The memory base directory for this environment (no disk access). */
export function memoryBase(env: NodeJS.ProcessEnv): string {
  const explicit = env.MAESTRO_MEMORY_DIR?.trim();
  if (explicit) {
    if (!isAbsolute(explicit)) {
      throw inputError('INVALID_MEMORY_DIR', `MAESTRO_MEMORY_DIR must be an absolute path (got "${explicit}")`, {
        hint: 'e.g. MAESTRO_MEMORY_DIR="$HOME/.maestro-memory"',
      });
    }
    return resolve(explicit);
  }
  const xdg = env.XDG_DATA_HOME?.trim();
  // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  const data = xdg && isAbsolute(xdg) ? xdg : join(env.HOME?.trim() || homedir(), '.local', 'share');
  return join(data, 'maestro', 'memory');
}

/**
 * The project key: the project root's real path (symlinks resolved, so two spellings of one
 * checkout share a store), hashed so the key reveals nothing of the path, prefixed with the folder
 * name for people browsing the directory. A moved or re-cloned project gets a new key.
 */
export function projectKey(root: string): string {
  let real = resolve(root);
  try {
    real = realpathSync(real);
  } catch {
    // a root that does not exist yet keys by its resolved spelling
  }
  const name = slugify(basename(real)).slice(0, 32) || 'project';
  return `${name}-${sha256(real).slice(0, 16)}`;
}

export function memoryLocation(root: string, agent: string, env: NodeJS.ProcessEnv): MemoryLocation {
  const base = memoryBase(env);
  const key = projectKey(root);
  const dir = join(base, key, agent);
  return { base, projectKey: key, agent, dir, records: join(dir, 'memories.json'), rules: join(dir, 'rules.json') };
}
