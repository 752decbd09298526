import { inputError, sha256 } from '@maestro/core';
import { applyFilePlan } from './ops.js';
import type { PlanInput, PromotionPlan } from './plan.js';
import type { FileOp, FilePlan, PromotedEntry } from './schemas.js';

/** Collects each file's operations during planning, then computes every file's exact final bytes. */
const KIND_ORDER: Record<FilePlan['kind'], number> = { spec: 0, knowhow: 1, ledger: 2, session: 3 };

export class PlanBuilder {
  readonly files = new Map<string, FilePlan>();
  readonly texts = new Map<string, string | null>();

  constructor(readonly input: PlanInput) {
    for (const s of input.loaded.specs) this.texts.set(s.file, s.utf8 ? s.text : null);
    for (const k of input.loaded.knowhow) this.texts.set(k.file, k.utf8 ? k.text : null);
    for (const l of input.ledgers.values()) this.texts.set(l.path, l.text);
    this.texts.set(input.session.path, input.session.text);
  }

  add(path: string, kind: FilePlan['kind'], op: FileOp): void {
    let plan = this.files.get(path);
    if (!plan) {
      this.refuseNonUtf8(path);
      const before = this.texts.get(path) ?? null;
      plan = { path, kind, before_sha256: before === null ? null : sha256(before), ops: [] };
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
  }

  build(promoted: PromotedEntry[]): PromotionPlan {
    const files = [...this.files.values()].sort(
      (a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
    );
    const at = this.input.now.toISOString();
    const writes: PromotionPlan['writes'] = [];
    for (const f of files) {
      const before = this.texts.get(f.path) ?? null;
      const loaded = this.input.loaded.specs.find((s) => s.file === f.path);
      const parsed = loaded && before === loaded.text ? { model: loaded.model, entries: loaded.entries } : undefined;
      const content = applyFilePlan(f, before, at, parsed);
      if (content !== before) writes.push({ path: f.path, content });
    }
    return { files, writes, promoted };
  }
}
