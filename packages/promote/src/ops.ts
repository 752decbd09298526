import { contentHash, environmentError, refusedError } from '@maestro/core';
import { parseDelta, SessionRecordSchema, serializeDelta, serializeSession } from '@maestro/ledger';
import {
  appendSpecEntry,
  type KnowledgeEntry,
  knowhowEntry,
  locateEntries,
  parseKnowhowFile,
  parseSpecFile,
  SEED_FILES,
  type SpecEntryNode,
  type SpecFileModel,
  seedFileText,
  serializeSpecFile,
  setKnowhowFields,
  withAttributes,
} from '@maestro/spec';
import type { FileOp, FilePlan } from './schemas.js';

/**
 * The edits a promotion makes, as idempotent operations on one file's text (pure). Planning
 * applies them to the text read under the locks; recovery re-applies them to whatever the file
 * holds now, so a file another writer touched after a crash keeps that writer's change and
 * still gets ours exactly once.
 */

type Op<K extends FileOp['kind']> = Extract<FileOp, { kind: K }>;

function recoveryConflict(path: string, message: string) {
  return environmentError('PROMOTION_RECOVERY_CONFLICT', `.workflow/${path}: ${message}`, {
    hint: 'the file changed in a way the interrupted promotion cannot be completed on; inspect it, then move .workflow/.promote-commit.intent.json aside and promote again',
    location: { file: `.workflow/${path}` },
  });
}

function seedFor(path: string): string {
  const seed = SEED_FILES.find((s) => `specs/${s.file}` === path);
  return seed ? seedFileText(seed) : '';
}

/** A spec file already parsed by the caller (the planner has the corpus loaded): skips a re-parse. */
export interface ParsedSpecFile {
  model: SpecFileModel;
  entries: readonly KnowledgeEntry[];
}

/** Each entry node (null for legacy entries) with its segment index and view, in file order. */
function located(parsed: ParsedSpecFile) {
  const out: { node: SpecEntryNode | null; id: string; segmentIndex: number }[] = [];
  let v = 0;
  parsed.model.segments.forEach((s, i) => {
    if (s.kind === 'text') return;
    out.push({ node: s.kind === 'entry' ? s : null, id: parsed.entries[v++].id, segmentIndex: i });
  });
  return out;
}

/** Which ids a spec file holds (as its parse names them), known without parsing it. */
export interface KnownIds {
  has(id: string): boolean;
}

function applySpec(path: string, text: string | null, ops: readonly FileOp[], pre?: ParsedSpecFile | KnownIds): string {
  let out = text ?? seedFor(path);
  const sets = ops.filter((o): o is Op<'set-attributes'> => o.kind === 'set-attributes');
  const known = pre && 'has' in pre && !sets.length ? pre : null;
  const parsed = known ? null : pre && 'model' in pre ? pre : parseForEdit(out, path);
  const entries = parsed ? located(parsed) : [];
  if (parsed && sets.length) {
    const segments = [...parsed.model.segments];
    let changed = false;
    for (const op of sets) {
      const found = entries.find((l) => l.id === op.id);
      if (!found?.node) throw recoveryConflict(path, `entry ${op.id} is gone or has no tag to edit`);
      const node = segments[found.segmentIndex] as SpecEntryNode;
      const current = Object.fromEntries(node.attributes.map((a) => [a.name, a.value]));
      const changes = Object.fromEntries(
        Object.entries(op.changes).filter(([k, v]) => (v === null ? k in current : current[k] !== v)),
      );
      if (Object.keys(changes).length === 0) continue;
      segments[found.segmentIndex] = withAttributes(node, changes);
      changed = true;
    }
    if (changed) out = serializeSpecFile({ ...parsed.model, segments });
  }
  // Appended in one go: appending "a" then "b" gives exactly the bytes of appending "a\n\nb".
  const ids = new Set(entries.map((l) => l.id));
  const blocks: string[] = [];
  for (const op of ops) {
    if (op.kind !== 'append-entry' || ids.has(op.sid) || known?.has(op.sid)) continue;
    blocks.push(op.block);
    ids.add(op.sid);
  }
  return blocks.length ? appendSpecEntry(out, blocks.join('\n\n')) : out;
}

function parseForEdit(text: string, path: string): ParsedSpecFile {
  const model = parseSpecFile(text, path).value;
  return { model, entries: locateEntries(model, path).map((l) => l.entry) };
}

function applyKnowhow(path: string, text: string | null, ops: readonly FileOp[]): string {
  let out = text;
  for (const op of ops) {
    if (op.kind === 'create-document') {
      if (out === null) out = op.text;
      else if (out !== op.text && !sameDocument(path, out, op)) {
        throw refusedError(
          'CALLER_PAYLOAD_CONFLICT',
          `divergent existing explicit id: .workflow/${path} holds a different document`,
          {
            hint: 'the planned promotion file is taken by other content; move it aside, then promote again',
            location: { file: `.workflow/${path}` },
          },
        );
      }
    } else if (op.kind === 'deprecate-document') {
      if (out === null) throw recoveryConflict(path, 'the document to deprecate is gone');
      const entry = knowhowEntry(parseKnowhowFile(out, path).value, path, []);
      if (entry.status !== 'deprecated' || entry.supersededBy !== op.superseded_by) {
        out = setKnowhowFields(out, { status: 'deprecated', supersededBy: op.superseded_by });
      }
    }
  }
  if (out === null) throw recoveryConflict(path, 'nothing to write');
  return out;
}

/** An existing document is ours when it carries the planned explicit id and the same content. */
export function sameDocument(path: string, text: string, op: { explicit_id: string; content_hash: string }): boolean {
  const entry = knowhowEntry(parseKnowhowFile(text, path).value, path, []);
  return entry.explicitId === op.explicit_id && contentHash(entry.content) === op.content_hash;
}

function applyLedger(path: string, text: string | null, ops: readonly FileOp[], at: string): string {
  if (text === null) throw recoveryConflict(path, 'the run ledger is gone');
  const delta = parseDelta(text, `.workflow/${path}`);
  let changed = false;
  for (const op of ops) {
    if (op.kind !== 'mark-promoted') continue;
    const c = delta.candidates.find((x) => x.candidate_id === op.candidate_id);
    if (!c) throw recoveryConflict(path, `candidate ${op.candidate_id} is no longer in the ledger`);
    if (c.status === 'promoted') continue;
    c.status = 'promoted';
    c.promoted_id = op.promoted_id;
    c.promotion_receipt = { ...op.receipt };
    if (c.rejection) c.rejection = null;
    changed = true;
  }
  if (!changed) return text;
  return serializeDelta({ ...delta, revision: delta.revision + 1, updated_at: at });
}

function applySession(path: string, text: string | null, ops: readonly FileOp[], at: string): string {
  if (text === null) throw recoveryConflict(path, 'session.json is gone');
  const session = SessionRecordSchema.parse(JSON.parse(text));
  const { lifecycle } = session;
  const before = lifecycle.promoted_spec_ids.length + lifecycle.promoted_knowhow_ids.length;
  for (const op of ops) {
    if (op.kind !== 'add-promoted-ids') continue;
    lifecycle.promoted_spec_ids = [...new Set([...lifecycle.promoted_spec_ids, ...op.spec])];
    lifecycle.promoted_knowhow_ids = [...new Set([...lifecycle.promoted_knowhow_ids, ...op.knowhow])];
  }
  if (lifecycle.promoted_spec_ids.length + lifecycle.promoted_knowhow_ids.length === before) return text;
  return serializeSession({ ...session, revision: session.revision + 1, updated_at: at });
}

/**
 * The file's text after the plan's operations; `text` is null when the file does not exist.
 * `parsed` may pass a spec file's model and entries when the caller already parsed `text`.
 */
export function applyFilePlan(
  plan: Pick<FilePlan, 'path' | 'kind' | 'ops'>,
  text: string | null,
  at: string,
  parsed?: ParsedSpecFile | KnownIds,
): string {
  switch (plan.kind) {
    case 'spec':
      return applySpec(plan.path, text, plan.ops, parsed);
    case 'knowhow':
      return applyKnowhow(plan.path, text, plan.ops);
    case 'ledger':
      return applyLedger(plan.path, text, plan.ops, at);
    case 'session':
      return applySession(plan.path, text, plan.ops, at);
  }
}
