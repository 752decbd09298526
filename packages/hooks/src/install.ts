import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { environmentError, sha256 } from '@maestro/core';
import { readJsonIfExists, readUserFile, writeFileAtomic, writeJsonAtomic } from '@maestro/fs';
import { type Agent, HOOK_EVENTS, hookFile, type Scope } from './agents.js';
import { addOurHooks, removeOurHooks, viewHookFile } from './edit.js';

export interface HooksTarget {
  agent: Agent;
  scope: Scope;
  /** The project root (project scope). */
  root: string;
  home: string;
  /** Where install records live (`$XDG_STATE_HOME/maestro/hooks`, see `hooksStateDir`). */
  stateDir: string;
}

/** What install wrote, so uninstall can put the original bytes back if nobody touched the file since. */
interface InstallRecord {
  schema_version: 'maestro-hooks-install/1.0';
  file: string;
  agent: Agent;
  /** The file's text before the first install, null when it did not exist. */
  original: string | null;
  /** False once the file changed between installs: then uninstall removes only our entries. */
  restorable: boolean;
  /** sha256 of the text install last wrote. */
  written: string;
}

export interface HooksResult {
  agent: Agent;
  scope: Scope;
  file: string;
  changed: boolean;
  /** install: events added; uninstall: events removed. */
  events: string[];
  /** uninstall: `restored` (original bytes back), `edited` (only our entries removed), `absent`. */
  how: 'added' | 'unchanged' | 'restored' | 'edited' | 'absent';
}

export function hooksStateDir(env: NodeJS.ProcessEnv, home: string): string {
  return join(env.XDG_STATE_HOME || join(home, '.local', 'state'), 'maestro', 'hooks');
}

const recordPath = (t: HooksTarget, file: string) => join(t.stateDir, `${t.agent}-${sha256(file).slice(0, 16)}.json`);
const BOM = '\uFEFF';
/**
 * The file's exact text (a byte-order mark included: the decoder drops it, so it is put back), or
 * null when it does not exist; not UTF-8 or unreadable is an input error.
 */
function read(file: string): string | null {
  if (!existsSync(file)) return null;
  const text = readUserFile(file, 'hook file');
  const head = readFileSync(file).subarray(0, 3);
  return head.equals(Buffer.from([0xef, 0xbb, 0xbf])) && !text.startsWith(BOM) ? BOM + text : text;
}
/** Edits work on the text after a byte-order mark; the mark is written back as it was. */
const withoutBom = (text: string | null) =>
  text?.startsWith(BOM) ? { bom: BOM, body: text.slice(1) } : { bom: '', body: text };

/**
 * Writes `text` unless the file changed since it was read as `before` (the agent, an editor or
 * another install wrote it meanwhile): then nothing is written and the user reruns, so no edit of
 * theirs is ever lost.
 */
async function writeUnlessChanged(file: string, before: string | null, text: string): Promise<void> {
  if (read(file) !== before) {
    throw environmentError('HOOK_FILE_CHANGED', `${file} changed while Maestro was editing it; nothing was written`, {
      hint: 'rerun the same command',
      location: { file },
    });
  }
  await writeFileAtomic(file, text);
}

/** Adds Maestro's SessionStart, UserPromptSubmit and Stop hooks to the agent's file; idempotent. */
export async function installHooks(t: HooksTarget, maestro: string): Promise<HooksResult> {
  const file = hookFile(t.agent, t.scope, t.root, t.home);
  const before = read(file);
  const { bom, body } = withoutBom(before);
  const edited = addOurHooks(t.agent, body, file, maestro);
  const text = bom + edited.text;
  const added = edited.added;
  const base = { agent: t.agent, scope: t.scope, file, events: added };
  if (added.length === 0) return { ...base, changed: false, how: 'unchanged' };
  const rp = recordPath(t, file);
  const prior = readJsonIfExists(rp) as InstallRecord | null;
  const record: InstallRecord = {
    schema_version: 'maestro-hooks-install/1.0',
    file,
    agent: t.agent,
    original: prior ? prior.original : before,
    restorable: prior ? prior.restorable && before !== null && sha256(before) === prior.written : true,
    written: sha256(text),
  };
  mkdirSync(t.stateDir, { recursive: true });
  // The record first: a crash between the two writes leaves a record of a write that did not happen,
  // whose hash then never matches, so uninstall falls back to removing only our entries.
  await writeJsonAtomic(rp, record);
  mkdirSync(dirname(file), { recursive: true });
  await writeUnlessChanged(file, before, text);
  return { ...base, changed: true, how: 'added' };
}

/**
 * Removes Maestro's hooks: the original bytes come back when the file is exactly what install
 * wrote (a file install created is deleted); otherwise only our entries are removed, and other
 * hooks, comments and settings stay as they are.
 */
export async function uninstallHooks(t: HooksTarget): Promise<HooksResult> {
  const file = hookFile(t.agent, t.scope, t.root, t.home);
  const rp = recordPath(t, file);
  const record = readJsonIfExists(rp) as InstallRecord | null;
  const current = read(file);
  const base = { agent: t.agent, scope: t.scope, file };
  if (current === null) {
    rmSync(rp, { force: true });
    return { ...base, changed: false, events: [], how: 'absent' };
  }
  const { bom, body } = withoutBom(current);
  const ours = viewHookFile(t.agent, body as string, file).installed;
  if (record?.restorable && sha256(current) === record.written) {
    if (record.original === null) rmSync(file);
    else await writeUnlessChanged(file, current, record.original);
    rmSync(rp, { force: true });
    return { ...base, changed: true, events: ours, how: 'restored' };
  }
  const { text, removed } = removeOurHooks(t.agent, body as string, file);
  if (removed.length > 0) await writeUnlessChanged(file, current, bom + text);
  rmSync(rp, { force: true });
  return { ...base, changed: removed.length > 0, events: removed, how: removed.length > 0 ? 'edited' : 'unchanged' };
}

export interface HooksStatus {
  agent: Agent;
  scope: Scope;
  file: string;
  exists: boolean;
  /** Our events present in the file. */
  installed: string[];
  /** Our events missing from it. */
  missing: string[];
  /** Other hooks kept in the file, per event. */
  others: Record<string, number>;
}

export function hooksStatus(t: Omit<HooksTarget, 'stateDir'>): HooksStatus {
  const file = hookFile(t.agent, t.scope, t.root, t.home);
  const text = read(file);
  const body = withoutBom(text).body;
  const view = body === null ? { installed: [], others: {} } : viewHookFile(t.agent, body, file);
  return {
    agent: t.agent,
    scope: t.scope,
    file,
    exists: text !== null,
    installed: view.installed,
    missing: HOOK_EVENTS.map((e) => e.event).filter((e) => !view.installed.includes(e)),
    others: view.others,
  };
}
