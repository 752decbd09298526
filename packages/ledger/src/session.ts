import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { compactDate, type Issue, inputError, type Runtime, slugify } from '@maestro/core';
import { readTextIfExists, type WorkflowLayout, withLock, writeFileAtomic } from '@maestro/fs';
import { fromFlowSession } from './foreign.js';
import { assertIdDate, assertSessionId, sessionPaths } from './paths.js';
import { publishDir } from './publish.js';
import { type SessionRecord, SessionRecordSchema } from './schemas.js';
import { damagedFileError, displayPath, issueFromError, parseRecord } from './validate.js';

/** Serialises session.json the one way we write it (2-space JSON, final newline). */
export function serializeSession(session: SessionRecord): string {
  return `${JSON.stringify(SessionRecordSchema.parse(session), null, 2)}\n`;
}

/**
 * Reads and validates `sessions/<id>/session.json`. An unknown session or a damaged file is bad
 * input (exit 2) naming the file and its first problems.
 */
export function readSession(layout: WorkflowLayout, sessionId: string): SessionRecord {
  const paths = sessionPaths(layout, sessionId);
  const file = displayPath(layout.root, paths.sessionJson);
  const text = readTextIfExists(paths.sessionJson);
  if (text === null) {
    if (isEmptyDir(paths.dir)) {
      throw inputError(
        'SESSION_INVALID',
        `${file} is missing and its folder is empty (an interrupted session create)`,
        {
          hint: `rmdir ${displayPath(layout.root, paths.dir)}, or recreate it with \`maestro session create --id ${sessionId}\``,
          location: { file },
        },
      );
    }
    if (existsSync(paths.dir)) {
      throw damagedFileError('session', file, [
        { file, severity: 'error', code: 'SESSION_INVALID', message: 'the file is missing' },
      ]);
    }
    throw inputError('SESSION_NOT_FOUND', `unknown session "${sessionId}"`, {
      hint: `run \`maestro session list\` to see the sessions, or \`maestro session create --id ${sessionId}\``,
    });
  }
  const r = parseRecord(text, file, SessionRecordSchema, 'session', fromFlowSession);
  if (r.value === null) throw damagedFileError('session', file, r.issues);
  if (r.value.session_id !== sessionId) {
    throw damagedFileError('session', file, [
      {
        file,
        severity: 'error',
        code: 'SESSION_INVALID',
        message: `session_id "${r.value.session_id}" does not match its folder "${sessionId}"`,
      },
    ]);
  }
  return r.value;
}

/** Every session, sorted by id. Damaged or foreign session folders are reported and skipped. */
export function listSessions(layout: WorkflowLayout): { sessions: SessionRecord[]; problems: Issue[] } {
  const sessions: SessionRecord[] = [];
  const problems: Issue[] = [];
  for (const name of listDirs(layout.sessions)) {
    const file = displayPath(layout.root, `${layout.sessions}/${name}`);
    try {
      assertSessionId(name);
      sessions.push(readSession(layout, name));
    } catch (err) {
      problems.push(issueFromError(err, file));
    }
  }
  return { sessions, problems };
}

/** True for an existing directory with nothing in it (what an interrupted create of older versions left). */
export function isEmptyDir(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch {
    return false;
  }
}

/** Sub-directories of `dir` (none when it does not exist), sorted, hidden ones excluded. */
export function listDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
      .map((d) => d.name)
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

export interface CreateSessionOptions {
  id?: string;
  title?: string;
}

/**
 * Creates a session. Without an id it is `YYYYMMDD-<slug of the title>` (or `-session`), with
 * `-2`, `-3`... appended when taken. An explicit id that exists is bad input.
 */
export async function createSession(
  layout: WorkflowLayout,
  options: CreateSessionOptions,
  runtime: Runtime,
): Promise<SessionRecord> {
  const now = runtime.now();
  const title = (options.title ?? '').trim();
  mkdirSync(layout.sessions, { recursive: true });
  const at = now.toISOString();
  const record = (session_id: string): SessionRecord => ({
    schema_version: 'maestro-session/1.0',
    session_id,
    title,
    status: 'running',
    created_at: at,
    updated_at: at,
    revision: 0,
    lifecycle: { sealed_at: null, seal_summary: null, promoted_spec_ids: [], promoted_knowhow_ids: [] },
  });
  const publish = (id: string) => publishDir(layout.sessions, id, 'session.json', serializeSession(record(id)));
  if (options.id !== undefined) {
    const id = options.id;
    assertSessionId(id);
    assertIdDate(id, 'session');
    if (!publish(id)) {
      throw inputError('SESSION_EXISTS', `session "${id}" already exists`, {
        hint: `pick another --id, or use it: \`maestro session show ${id}\``,
      });
    }
    return record(id);
  }
  const base = `${compactDate(now)}-${slugify(title, 40) || 'session'}`;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (publish(candidate)) return record(candidate);
  }
}

/**
 * Changes session.json under its lock: re-reads it (so concurrent writers never lose updates),
 * applies `fn`, bumps `revision` and `updated_at`, validates and writes atomically.
 * `fn` may throw to refuse; nothing is written then.
 */
export async function updateSession(
  layout: WorkflowLayout,
  sessionId: string,
  fn: (session: SessionRecord) => SessionRecord | undefined,
  runtime: Runtime,
): Promise<SessionRecord> {
  const paths = sessionPaths(layout, sessionId);
  readSession(layout, sessionId); // unknown or damaged: fail before creating a lock file
  return withLock(paths.sessionJson, async () => {
    const current = readSession(layout, sessionId);
    const draft = structuredClone(current);
    const next = fn(draft) ?? draft;
    const updated: SessionRecord = {
      ...next,
      revision: current.revision + 1,
      updated_at: runtime.now().toISOString(),
    };
    await writeFileAtomic(paths.sessionJson, serializeSession(updated));
    return updated;
  });
}
