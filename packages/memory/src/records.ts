import { inputError, type Runtime, randomBase36 } from '@maestro/core';
import { refuseKnowledgeCopy } from './knowledge-copy.js';
import { type MemoryLocation, memoryLocation, resolveAgent } from './location.js';
import type { StoreInfoData } from './output-schemas.js';
import { checkMemoryText } from './rules.js';
import { MEMORY_ID_PATTERN, MEMORY_KINDS, type MemoryFile, type MemoryKind, type MemoryRecord } from './schemas.js';
import { readRules, readStore, updateStore } from './store.js';

/** Which store a call works on: the project root, the agent (flag or `MAESTRO_AGENT`), the environment. */
export interface MemoryTarget {
  root: string;
  agent?: string;
  env: NodeJS.ProcessEnv;
  runtime: Runtime;
}

export function locate(t: MemoryTarget): MemoryLocation {
  return memoryLocation(t.root, resolveAgent(t.agent, t.env), t.env);
}

export function storeInfo(loc: MemoryLocation): StoreInfoData {
  return { dir: loc.dir, project_key: loc.projectKey, agent: loc.agent };
}

export function parseKind(value: string): MemoryKind {
  const v = value.trim().replaceAll('-', '_');
  if ((MEMORY_KINDS as readonly string[]).includes(v)) return v as MemoryKind;
  throw inputError('INVALID_KIND', `--kind must be one of ${MEMORY_KINDS.join(', ')} (got "${value}")`, {
    hint: 'e.g. --kind decision',
  });
}

export function parseUnit(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw inputError('INVALID_NUMBER', `${flag} must be a number from 0 to 1 (got "${value}")`, {
      hint: `e.g. ${flag} 0.4`,
    });
  }
  return n;
}

function checkText(text: string): string {
  const t = text.trim();
  if (!t)
    throw inputError('EMPTY_MEMORY', 'the memory text is empty', {
      hint: 'e.g. maestro memory add "The user chose plan B for billing"',
    });
  return t;
}

export interface AddRequest {
  text: string;
  kind?: MemoryKind;
  session?: string | null;
  run?: string | null;
  path?: string | null;
  prompt?: string | null;
  confidence?: number;
  /** The id of a shared rule this memory corrects. */
  corrects?: string | null;
}

/** `memory add`: checked against the rules and the knowledge corpus before anything is written. */
export async function addMemory(
  t: MemoryTarget,
  req: AddRequest,
): Promise<{ store: StoreInfoData; record: MemoryRecord }> {
  const loc = locate(t);
  const text = checkText(req.text);
  const kind = req.kind ?? 'experience';
  checkMemoryText(readRules(loc), kind, text);
  refuseKnowledgeCopy(t.root, text);
  const at = t.runtime.now().toISOString();
  const record = await updateStore(loc, at, (store) => {
    const taken = new Set(store.records.map((r) => r.id));
    let id = `M-${randomBase36(t.runtime, 10)}`;
    while (taken.has(id)) id = `M-${randomBase36(t.runtime, 10)}`;
    const r: MemoryRecord = {
      id,
      kind,
      text,
      scope: { session: req.session ?? null, run: req.run ?? null, path: req.path ?? null },
      created_at: at,
      updated_at: at,
      last_recalled_at: null,
      recall_count: 0,
      recalled_sessions: [],
      confidence: req.confidence ?? 0.8,
      decayed_at: at,
      source: {
        kind: req.prompt ? 'prompt' : req.run ? 'run' : 'manual',
        prompt: req.prompt ?? null,
        session: req.session ?? null,
        run: req.run ?? null,
      },
      corrects: req.corrects ?? null,
      promotions: [],
      history: [{ at, action: 'created', text: null, from_id: null, confidence: null, note: null }],
    };
    store.records.push(r);
    return r;
  });
  return { store: storeInfo(loc), record };
}

export function findRecord(store: MemoryFile | null, id: string, loc: MemoryLocation): MemoryRecord {
  if (!MEMORY_ID_PATTERN.test(id)) {
    throw inputError('INVALID_MEMORY_ID', `"${id}" is not a memory id (M- and 10 characters)`, {
      hint: 'see the ids with `maestro memory list`',
    });
  }
  const r = store?.records.find((x) => x.id === id);
  if (!r) {
    throw inputError('MEMORY_NOT_FOUND', `no memory ${id} for agent "${loc.agent}" in this project`, {
      hint: `list them with \`maestro memory list --agent ${loc.agent}\` (memories of other agents are kept apart)`,
    });
  }
  return r;
}

export function showMemory(t: MemoryTarget, id: string): { store: StoreInfoData; record: MemoryRecord } {
  const loc = locate(t);
  return { store: storeInfo(loc), record: findRecord(readStore(loc), id, loc) };
}

export interface UpdateRequest {
  text?: string;
  kind?: MemoryKind;
  confidence?: number;
}

/** `memory update`: the previous text goes into the record's history; new text meets the rules. */
export async function updateMemory(t: MemoryTarget, id: string, req: UpdateRequest) {
  const loc = locate(t);
  const changed: ('text' | 'kind' | 'confidence')[] = [];
  if (req.text === undefined && req.kind === undefined && req.confidence === undefined) {
    throw inputError('NOTHING_TO_UPDATE', 'nothing to update', {
      hint: `e.g. maestro memory update ${id} --text "…" (or --kind, --confidence)`,
    });
  }
  const text = req.text === undefined ? undefined : checkText(req.text);
  const before = findRecord(readStore(loc), id, loc);
  checkMemoryText(readRules(loc), req.kind ?? before.kind, text ?? before.text);
  if (text !== undefined) refuseKnowledgeCopy(t.root, text);
  const at = t.runtime.now().toISOString();
  const record = await updateStore(
    loc,
    at,
    (store) => {
      const r = findRecord(store, id, loc);
      const prev = { text: r.text, confidence: r.confidence };
      if (text !== undefined && text !== r.text) {
        r.text = text;
        changed.push('text');
      }
      if (req.kind !== undefined && req.kind !== r.kind) {
        r.kind = req.kind;
        changed.push('kind');
      }
      if (req.confidence !== undefined && req.confidence !== r.confidence) {
        r.confidence = req.confidence;
        r.decayed_at = at;
        changed.push('confidence');
      }
      if (changed.length > 0) {
        r.updated_at = at;
        r.history.push({
          at,
          action: 'updated',
          text: prev.text,
          from_id: null,
          confidence: prev.confidence,
          note: `changed ${changed.join(', ')}`,
        });
      }
      return r;
    },
    { write: () => changed.length > 0 },
  );
  return { store: storeInfo(loc), record, changed };
}

/**
 * `memory delete`: the user's right to forget. The records are removed with their whole history,
 * and so is any history entry of another record that quotes them (a merge or supersession), so
 * no file of the store holds their text afterwards.
 */
export async function deleteMemories(t: MemoryTarget, ids: readonly string[]) {
  const loc = locate(t);
  if (ids.length === 0)
    throw inputError('USAGE', 'missing <id...>', { hint: 'e.g. maestro memory delete M-0123456789' });
  const known = (store: MemoryFile | null, id: string) => {
    // A record merged into another lives on in that record's history: deleting its id removes it there.
    if (!store?.records.some((r) => r.history.some((h) => h.from_id === id))) findRecord(store, id, loc);
  };
  for (const id of ids) known(readStore(loc), id);
  const at = t.runtime.now().toISOString();
  await updateStore(loc, at, (store) => {
    for (const id of ids) known(store, id);
    const gone = new Set(ids);
    store.records = store.records.filter((r) => !gone.has(r.id));
    for (const r of store.records) r.history = r.history.filter((h) => h.from_id === null || !gone.has(h.from_id));
  });
  return { store: storeInfo(loc), deleted: [...ids] };
}
