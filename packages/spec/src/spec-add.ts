import { compactDate, inputError, isoDate, newSid, type Runtime, slugify, systemRuntime } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import type { LoadedCorpus } from './corpus.js';
import { renderKnowhowFile } from './knowhow-edit.js';
import { SPEC_CATEGORIES } from './model.js';
import { SEED_FILES, seedFileText } from './seeds.js';
import { takenIds } from './spec-apply.js';
import { appendSpecEntry, categoryFileFor, isSpecCategory, renderSpecEntry } from './spec-edit.js';
import { editCorpus, type FileWrite, type WriteOptions } from './write.js';

export interface AddSpecInput {
  category: string;
  title: string;
  content: string;
  keywords?: readonly string[];
  description?: string | null;
  source?: string | null;
}

export interface AddSpecResult {
  ok: true;
  /** True when an entry with the same title (case-insensitive) exists in the target file; nothing was written. */
  duplicate: boolean;
  /** Target file relative to `.workflow/`. */
  file: string;
  category: string;
  title: string;
  /** The new entry's sid, or the existing entry's id when duplicate. */
  sid: string | null;
  /** True when the content exceeded 2048 characters and was stored as a DOC knowhow document. */
  redirected: boolean;
  /** `knowhow/DOC-...md` when redirected. */
  knowhowRef: string | null;
}

/** Content longer than this many characters goes to a DOC knowhow document. */
export const SPEC_INLINE_LIMIT = 2048;

/** Validates the input of `spec add`; problems are exit 2 with the fix. */
export function validateSpecInput(input: AddSpecInput): void {
  if (!isSpecCategory(input.category)) {
    throw inputError('UNKNOWN_CATEGORY', `unknown category "${input.category}"`, {
      hint: `use one of: ${SPEC_CATEGORIES.join(', ')}`,
    });
  }
  if (!input.title.trim()) throw inputError('MISSING_TITLE', 'the title is empty', { hint: 'give a short title' });
  if (!input.content.trim()) {
    throw inputError('EMPTY_CONTENT', 'the content is empty', {
      hint: 'pass the content as the third argument, or with --content-file <file> (- reads stdin)',
    });
  }
}

/** Whitespace-collapsed first 200 characters: the inline summary of a redirected entry. */
export function summarize(content: string, max = 200): string {
  return [...content.replace(/\s+/g, ' ').trim()].slice(0, max).join('');
}

/**
 * `spec add`: appends a new entry with a corpus-unique sid to the category's file (creating it from
 * the seed when missing). A same-title entry in the target file makes it a no-op (`duplicate`).
 * Content over 2048 characters is stored as `knowhow/DOC-YYYYMMDD-<slug>.md` and the entry gets
 * `ref` plus a 200-character summary; both files are committed together.
 */
export async function addSpecEntry(
  layout: WorkflowLayout,
  input: AddSpecInput,
  runtime: Runtime = systemRuntime,
  options: WriteOptions = {},
): Promise<AddSpecResult> {
  validateSpecInput(input);
  const title = input.title.replace(/\s+/g, ' ').trim();
  const file = `specs/${categoryFileFor(input.category)}`;
  // Only the target file is read (plus, from the store, every id and knowhow file name in use).
  return editCorpus(layout, runtime, options, (loaded) => planAdd(loaded, { ...input, title }, file, runtime), [file]);
}

function planAdd(loaded: LoadedCorpus, input: AddSpecInput, file: string, runtime: Runtime) {
  const target = loaded.specs.find((f) => f.file === file);
  const base: Omit<AddSpecResult, 'duplicate' | 'sid'> = {
    ok: true,
    file,
    category: input.category,
    title: input.title,
    redirected: false,
    knowhowRef: null,
  };
  const want = input.title.toLowerCase();
  const dupId = loaded.titleIn
    ? loaded.titleIn(file, want)
    : (target?.entries.find(
        (e) => e.titleSource !== 'content' && e.titleSource !== 'none' && e.title.trim().toLowerCase() === want,
      )?.id ?? null);
  if (dupId !== null) return { writes: [], result: { ...base, duplicate: true, sid: dupId } as AddSpecResult };
  const now = runtime.now();
  const sid = newSid(runtime, takenIds(loaded));
  const writes: FileWrite[] = [];
  let content = input.content;
  let ref: string | null = null;
  if ([...input.content].length > SPEC_INLINE_LIMIT) {
    ref = docFileName(loaded, input.title, now);
    writes.push({
      file: ref,
      text: renderKnowhowFile({
        title: input.title,
        type: 'document',
        body: input.content,
        created: now.toISOString(),
        description: input.description ?? null,
        keywords: input.keywords ?? [],
        extra: { specCategory: input.category },
      }),
    });
    content = summarize(input.content);
  }
  const seed = SEED_FILES.find((s) => `specs/${s.file}` === file)!;
  const text = target ? target.text : seedFileText(seed);
  const entry = renderSpecEntry({
    category: input.category,
    keywords: input.keywords?.length ? input.keywords : [input.category],
    date: isoDate(now),
    sid,
    title: input.title,
    description: input.description,
    source: input.source,
    ref,
    content,
  });
  writes.push({ file, text: appendSpecEntry(text, entry) });
  return { writes, result: { ...base, duplicate: false, sid, redirected: ref !== null, knowhowRef: ref } };
}

/** `knowhow/DOC-YYYYMMDD-<slug>.md`, with an `-HHMM` fallback for empty slugs and `-2`, `-3` on clashes. */
function docFileName(loaded: LoadedCorpus, title: string, now: Date): string {
  const slug = slugify(title, 40) || now.toISOString().slice(11, 16).replace(':', '');
  const taken = loaded.knowhowFiles ?? new Set(loaded.knowhow.map((k) => k.file));
  const stem = `knowhow/DOC-${compactDate(now)}-${slug}`;
  let name = `${stem}.md`;
  for (let n = 2; taken.has(name); n++) name = `${stem}-${n}.md`;
  return name;
}
