import { inputError, sha256 } from '@maestro/core';
import { type LoadedSpecFile, refuseConflicted } from '@maestro/spec';
import { applyFilePlan, type KnownIds, type ParsedSpecFile } from './ops.js';
import type { PlanInput, PromotionPlan } from './plan.js';
import type { FileOp, FilePlan, PromotedEntry } from './schemas.js';

/** Collects each file's operations during planning, then computes every file's exact final bytes. */
const KIND_ORDER: Record<FilePlan['kind'], number> = { spec: 0, knowhow: 1, ledger: 2, session: 3 };

export class PlanBuilder {
  readonly files = new Map<string, FilePlan>();
  /** Ledger and session texts as read under their locks. */
  private readonly texts = new Map<string, string>();

  constructor(readonly input: PlanInput) {
    for (const l of input.ledgers.values()) this.texts.set(l.path, l.text);
    this.texts.set(input.session.path, input.session.text);
  }

  /**
   * A file's text as read for this plan (null: it does not exist, or is not UTF-8). Corpus texts
   * are read when first asked for: a promotion reads only the files it looks at.
   */
  textOf(path: string): string | null {
    const own = this.texts.get(path);
    if (own !== undefined) return own;
    const f =
      this.input.loaded.specs.find((s) => s.file === path) ?? this.input.loaded.knowhow.find((k) => k.file === path);
    return f?.utf8 ? f.text : null;
  }

  add(path: string, kind: FilePlan['kind'], op: FileOp): void {
    let plan = this.files.get(path);
    if (!plan) {
      this.refuseNonUtf8(path);
      const before = this.textOf(path);
      // A spec file read through the store was checked against its hash as it was read.
      const known = this.input.loaded.specs.find((s) => s.file === path)?.sha256;
      plan = { path, kind, before_sha256: before === null ? null : (known ?? sha256(before)), ops: [] };
      this.files.set(path, plan);
    }
    plan.ops.push(op);
  }

  private refuseNonUtf8(path: string): void {
    const f =
      this.input.loaded.specs.find((s) => s.file === path) ?? this.input.loaded.knowhow.find((k) => k.file === path);
    if (f && !f.utf8) {
      throw inputError('FILE_NOT_UTF8', `.workflow/${path} is not valid UTF-8; maestro will not rewrite it`, {
        hint: 'convert the file to UTF-8 and promote again; nothing was written',
        location: { file: `.workflow/${path}` },
      });
    }
    if (f) refuseConflicted(path, f.text, 'promote again');
  }

  build(promoted: PromotedEntry[]): PromotionPlan {
    const files = [...this.files.values()].sort(
      (a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
    );
    const at = this.input.now.toISOString();
    const writes: PromotionPlan['writes'] = [];
    for (const f of files) {
      const before = this.textOf(f.path);
      const loaded = this.input.loaded.specs.find((s) => s.file === f.path);
      const content = applyFilePlan(f, before, at, loaded && before === loaded.text ? parsedOf(loaded, f) : undefined);
      if (content !== before) writes.push({ path: f.path, content });
    }
    return { files, writes, promoted };
  }
}

/**
 * What applying a spec file's operations needs of the file as loaded: appends only need to know
 * which ids it holds (the store's rows say so without a parse); attribute edits need its model.
 */
function parsedOf(loaded: LoadedSpecFile, plan: FilePlan): ParsedSpecFile | KnownIds {
  const appendsOnly = plan.ops.every((o) => o.kind === 'append-entry');
  const { hasId } = loaded;
  if (appendsOnly && hasId && plan.ops.every((o) => o.kind !== 'append-entry' || hasId(o.sid) !== undefined)) {
    return { has: (id: string) => hasId(id) === true };
  }
  return { model: loaded.model, entries: loaded.entries };
}
