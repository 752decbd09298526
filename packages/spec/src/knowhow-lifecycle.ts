import { compactDate, hashJson, inputError, type Runtime, refusedError, slugify, systemRuntime } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { findEntry, type LoadedCorpus } from './corpus.js';
import { fmList, fmString } from './frontmatter.js';
import { renderKnowhowFile, setKnowhowFields } from './knowhow-edit.js';
import { KNOWHOW_TYPES, type KnowhowType, knowhowIdFor } from './knowhow-file.js';
import type { KnowledgeEntry } from './model.js';
import { checkSupersede, type SupersedeResult } from './spec-lifecycle.js';
import { editCorpus, type WriteOptions } from './write.js';

export interface AddKnowhowInput {
  type: string;
  title: string;
  content: string;
  keywords?: readonly string[];
  tags?: readonly string[];
  category?: string | null;
  description?: string | null;
  /** `<prefix>-YYYYMMDD-<kebab-slug>`; the prefix must match the type. Makes the add replay-safe. */
  explicitId?: string | null;
}

export interface AddKnowhowResult {
  id: string;
  /** Relative to `.workflow/`. */
  file: string;
  type: string;
  title: string;
  /** True when an explicit-id add found the identical document already there (nothing written). */
  replayed: boolean;
}

const EXPLICIT_ID = /^(knw|tip|tpl|rcp|ref|dcs|ast|blp|doc)-[0-9]{8}-[a-z0-9]+(-[a-z0-9]+)*$/;

export function validateKnowhowInput(input: AddKnowhowInput): KnowhowType {
  if (!(input.type in KNOWHOW_TYPES)) {
    throw inputError('UNKNOWN_KNOWHOW_TYPE', `unknown knowhow type "${input.type}"`, {
      hint: `use one of: ${Object.keys(KNOWHOW_TYPES).join(', ')}`,
    });
  }
  const type = input.type as KnowhowType;
  if (!input.title.trim()) throw inputError('MISSING_TITLE', 'the title is empty', { hint: 'give a short title' });
  if (!input.content.trim()) {
    throw inputError('EMPTY_CONTENT', 'the content is empty', {
      hint: 'pass the content as the third argument, or with --content-file <file> (- reads stdin)',
    });
  }
  if (input.explicitId) {
    const prefix = KNOWHOW_TYPES[type].toLowerCase();
    if (!EXPLICIT_ID.test(input.explicitId) || !input.explicitId.startsWith(`${prefix}-`)) {
      throw inputError('INVALID_KNOWHOW_ID', `invalid explicit knowhow id "${input.explicitId}"`, {
        hint: `expected ${prefix}-YYYYMMDD-<kebab-case-slug> for type ${type}`,
      });
    }
  }
  return type;
}

/** The canonical payload whose hash decides replay vs conflict for explicit-id adds. */
function payloadHash(p: {
  type: string;
  category: string | null;
  title: string;
  description: string | null;
  keywords: readonly string[];
  tags: readonly string[];
  body: string;
  explicitId: string;
}): string {
  return hashJson({
    ...p,
    keywords: [...p.keywords].sort(),
    tags: [...p.tags].sort(),
    body: p.body.replace(/\r\n?/g, '\n').trim(),
  });
}

/**
 * `knowhow add`: writes `knowhow/{PREFIX}-YYYYMMDD-<slug>.md` (`-HHMM` when the title has no ASCII
 * slug, e.g. CJK titles). With an explicit id the file is `{PREFIX}-<rest>.md`; an identical
 * existing document is a replay (`replayed: true`, nothing written), a different one is refused.
 */
export async function addKnowhow(
  layout: WorkflowLayout,
  input: AddKnowhowInput,
  runtime: Runtime = systemRuntime,
  options: WriteOptions = {},
): Promise<AddKnowhowResult> {
  const type = validateKnowhowInput(input);
  const title = input.title.replace(/\s+/g, ' ').trim();
  return editCorpus(layout, runtime, options, (loaded) => {
    const now = runtime.now();
    const file = knowhowFileName(loaded, type, title, now, input.explicitId ?? null);
    const result = { id: knowhowIdFor(file), file, type, title, replayed: false };
    const existing = loaded.knowhow.find((k) => k.file === file);
    if (existing && input.explicitId) {
      const d = existing.model.data;
      const fields = (src: Record<string, unknown> | null, body: string) => ({
        type: fmString(src, 'type') ?? '',
        category: fmString(src, 'category'),
        title: fmString(src, 'title') ?? '',
        description: fmString(src, 'description'),
        keywords: fmList(src, 'keywords'),
        tags: fmList(src, 'tags'),
        body,
        explicitId: fmString(src, 'explicitId') ?? '',
      });
      const mine = { type, category: input.category ?? null, title, description: input.description ?? null };
      const wanted = {
        ...mine,
        keywords: input.keywords ?? [],
        tags: input.tags ?? [],
        body: input.content,
        explicitId: input.explicitId,
      };
      if (payloadHash(fields(d, existing.model.body)) === payloadHash(wanted))
        return { writes: [], result: { ...result, replayed: true } };
      throw refusedError(
        'CALLER_PAYLOAD_CONFLICT',
        `divergent existing explicit id: .workflow/${file} holds a different document`,
        {
          hint: 'use a new explicit id, or supersede the existing document',
        },
      );
    }
    if (existing) {
      throw refusedError('KNOWHOW_EXISTS', `knowhow document already exists: .workflow/${file}`, {
        hint: 'choose a different title, or pass --id <explicit-id>',
      });
    }
    const text = renderKnowhowFile({
      title,
      type,
      body: input.content,
      created: now.toISOString(),
      description: input.description ?? null,
      category: input.category ?? null,
      explicitId: input.explicitId ?? null,
      keywords: input.keywords ?? [],
      tags: input.tags ?? [],
    });
    return { writes: [{ file, text }], result };
  });
}

function knowhowFileName(loaded: LoadedCorpus, type: KnowhowType, title: string, now: Date, explicitId: string | null) {
  const prefix = KNOWHOW_TYPES[type];
  if (explicitId) return `knowhow/${prefix}${explicitId.slice(prefix.length)}.md`;
  const slug = slugify(title, 40);
  const day = compactDate(now);
  if (slug) return `knowhow/${prefix}-${day}-${slug}.md`;
  const hhmm = now.toISOString().slice(11, 16).replace(':', '');
  const name = `knowhow/${prefix}-${day}-${hhmm}.md`;
  if (!loaded.knowhow.some((k) => k.file === name)) return name;
  return `knowhow/${prefix}-${day}-${now.toISOString().slice(11, 19).replace(/:/g, '')}.md`;
}

/** A knowhow entry by id, stem, file name or explicit id; unknown is exit 2. */
export function requireKnowhow(loaded: LoadedCorpus, ref: string): KnowledgeEntry {
  const e = findEntry(loaded.corpus, ref);
  if (e?.store !== 'knowhow') {
    throw inputError('UNKNOWN_ID', `no knowhow document with id ${ref}`, {
      hint: 'run `maestro knowhow list` to see the ids',
    });
  }
  return e;
}

/**
 * `knowhow supersede <old> --by <new>`: old gets `status: deprecated` and `supersededBy: <new id>`,
 * new gets `supersedes` (sorted, deduped JSON list); both written in one commit. Same refusals
 * as spec supersession; a rerun is a no-op.
 */
export function supersedeKnowhow(
  layout: WorkflowLayout,
  oldRef: string,
  newRef: string,
  runtime: Runtime = systemRuntime,
  options: WriteOptions = {},
): Promise<SupersedeResult> {
  return editCorpus(layout, runtime, options, (loaded) => {
    const old = requireKnowhow(loaded, oldRef);
    const next = requireKnowhow(loaded, newRef);
    checkSupersede(old, next, loaded.corpus.byId, (id) => `maestro knowhow history ${id}`);
    const writes = [];
    const oldFile = loaded.knowhow.find((k) => k.entry === old)!;
    const newFile = loaded.knowhow.find((k) => k.entry === next)!;
    const oldStatus = fmString(oldFile.model.data, 'status');
    if (oldStatus !== 'deprecated' || old.supersededBy !== next.id) {
      writes.push({
        file: old.file,
        text: setKnowhowFields(oldFile.text, { status: 'deprecated', supersededBy: next.id }),
      });
    }
    if (!next.supersedes.includes(old.id)) {
      const merged = [...new Set([...next.supersedes, old.id])].sort();
      writes.push({
        file: next.file,
        text: setKnowhowFields(newFile.text, { supersedes: merged }, { inlineLists: true }),
      });
    }
    return {
      writes,
      result: { old: old.id, new: next.id, changed: writes.length > 0, files: writes.map((w) => w.file) },
    };
  });
}
