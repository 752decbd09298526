import { environmentError, type Issue, inputError } from '@maestro/core';
import {
  type KnowhowFieldValue,
  type KnowledgeEntry,
  knowhowEntry,
  type LoadedCorpus,
  type LoadedSpecFile,
  locateEntries,
  parseKnowhowFile,
  parseSpecFile,
  refuseConflicted,
  type SpecEntryNode,
  serializeSpecFile,
  setKnowhowFields,
  specFileEntries,
  withAttributes,
} from '@maestro/spec';
import type { PruneAction } from './schemas.js';

/** One corpus file a plan changes: `.workflow/`-relative path, exact bytes before and after. */
export interface FileEdit {
  file: string;
  before: string;
  after: string;
  /** Index of the last action that touches the file: it is written once, right after that action. */
  lastAction: number;
}

interface Side {
  status?: 'deprecated';
  supersededBy?: string;
  addSupersedes: string[];
}

/**
 * The exact new bytes of every file the actions touch, computed in memory through
 * @maestro/spec's text API (attribute edits on the parsed tag, frontmatter key edits), so CRLF,
 * BOM and every untouched byte stay as they were. Pure. Each action writes both sides: the
 * target becomes deprecated with `superseded-by` (knowhow: `supersededBy`), the successor's
 * `supersedes` gains the target. Throws before anything is written if a file cannot be edited
 * or the result does not read back as intended.
 */
export function computeEdits(loaded: LoadedCorpus, actions: readonly PruneAction[]): FileEdit[] {
  const byId = loaded.corpus.byId;
  const sides = new Map<string, Side>();
  const lastAction = new Map<string, number>();
  const side = (id: string) => sides.get(id) ?? sides.set(id, { addSupersedes: [] }).get(id)!;
  actions.forEach((a, i) => {
    const target = requireEntry(byId, a.target_id);
    const successor = requireEntry(byId, a.successor_id);
    const t = side(target.id);
    t.status = 'deprecated';
    t.supersededBy = successor.id;
    side(successor.id).addSupersedes.push(target.id);
    lastAction.set(target.file, i);
    lastAction.set(successor.file, i);
  });
  const edits: FileEdit[] = [];
  for (const [file, last] of [...lastAction].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const ids = [...sides.keys()].filter((id) => byId.get(id)!.file === file);
    const spec = loaded.specs.find((s) => s.file === file);
    const kh = loaded.knowhow.find((k) => k.file === file);
    const utf8 = spec?.utf8 ?? kh?.utf8 ?? true;
    if (!utf8) {
      throw inputError('FILE_NOT_UTF8', `.workflow/${file} is not valid UTF-8; maestro will not rewrite it`, {
        hint: 'convert the file to UTF-8 and rerun; nothing was written',
        location: { file: `.workflow/${file}` },
      });
    }
    refuseConflicted(file, spec?.text ?? kh?.text ?? '');
    let after: string;
    if (spec) {
      const changes = new Map(ids.map((id) => [id, specChanges(byId.get(id)!, sides.get(id)!)]));
      after = applySpecEdits(spec, changes);
    } else if (kh) {
      after = setKnowhowFields(kh.text, knowhowChanges(kh.entry, sides.get(kh.entry.id)!), { inlineLists: true });
    } else {
      throw environmentError('AUDIT_FILE_UNKNOWN', `.workflow/${file} is not a loaded corpus file`);
    }
    const before = spec?.text ?? kh!.text;
    verify(
      file,
      after,
      ids.map((id) => [id, sides.get(id)!] as const),
      !!spec,
    );
    if (after !== before) edits.push({ file, before, after, lastAction: last });
  }
  return edits;
}

/** Attribute edits on the already-parsed model of one spec file (no re-parse), serialised once. */
function applySpecEdits(spec: LoadedSpecFile, changes: ReadonlyMap<string, Record<string, string | null>>): string {
  const located = new Map(locateEntries(spec.model, spec.file).map((l) => [l.entry.id, l]));
  const segments = [...spec.model.segments];
  for (const [id, ch] of changes) {
    if (!Object.keys(ch).length) continue;
    const l = located.get(id);
    if (!l?.node) {
      throw inputError('UNKNOWN_ID', `no tagged spec entry ${id} in .workflow/${spec.file}`, {
        hint: 'rerun `maestro knowledge audit --prune` to get a plan for the current corpus',
      });
    }
    segments[l.segmentIndex] = withAttributes(segments[l.segmentIndex] as SpecEntryNode, ch);
  }
  return serializeSpecFile({ ...spec.model, segments });
}

function requireEntry(byId: ReadonlyMap<string, KnowledgeEntry>, id: string): KnowledgeEntry {
  const e = byId.get(id);
  if (!e) {
    throw inputError('UNKNOWN_ID', `the prune plan names ${id}, which is not in the corpus any more`, {
      hint: 'rerun `maestro knowledge audit --prune` to get a plan for the current corpus',
    });
  }
  return e;
}

function merged(existing: readonly string[], add: readonly string[]): string[] {
  return [...new Set([...existing, ...add])];
}

/** Attribute changes for a spec entry: only values that differ (so no byte moves needlessly). */
function specChanges(e: KnowledgeEntry, s: Side): Record<string, string | null> {
  const want: Record<string, string> = {};
  if (s.status) want.status = s.status;
  if (s.supersededBy) want['superseded-by'] = s.supersededBy;
  if (s.addSupersedes.length) want.supersedes = merged(e.supersedes, s.addSupersedes).join(',');
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(want)) if (e.attributes?.[k] !== v) out[k] = v;
  return out;
}

/** Frontmatter changes in maestro-flow's lifecycle form: `status`, `supersededBy`, sorted `supersedes`. */
function knowhowChanges(e: KnowledgeEntry, s: Side): Record<string, KnowhowFieldValue> {
  const out: Record<string, KnowhowFieldValue> = {};
  if (s.status && e.status !== 'deprecated') out.status = s.status;
  if (s.supersededBy && e.supersededBy !== s.supersededBy) out.supersededBy = s.supersededBy;
  if (s.addSupersedes.length) {
    const list = merged(e.supersedes, s.addSupersedes).sort();
    if (list.join('\u0000') !== e.supersedes.join('\u0000')) out.supersedes = list;
  }
  return out;
}

/** Re-reads the new text and checks each edited entry says what the plan meant. */
function verify(file: string, text: string, expected: readonly (readonly [string, Side])[], isSpec: boolean): void {
  const issues: Issue[] = [];
  const entries = isSpec
    ? specFileEntries(parseSpecFile(text, `.workflow/${file}`).value, file, `.workflow/${file}`, issues)
    : [knowhowEntry(parseKnowhowFile(text, `.workflow/${file}`).value, file, issues)];
  for (const [id, s] of expected) {
    const e = entries.find((x) => x.id === id);
    const ok =
      e &&
      (!s.status || e.status === s.status) &&
      (!s.supersededBy || e.supersededBy === s.supersededBy) &&
      s.addSupersedes.every((x) => e.supersedes.includes(x));
    if (!ok) {
      throw environmentError(
        'AUDIT_EDIT_UNVERIFIED',
        `editing ${id} in .workflow/${file} did not read back as planned`,
        {
          hint: 'this is a bug in maestro; nothing was written',
        },
      );
    }
  }
}
