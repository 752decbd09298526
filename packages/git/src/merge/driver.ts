import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { environmentError } from '@maestro/core';
import { writeFileAtomic } from '@maestro/fs';
import { runGit } from '../run-git.js';
import { readExactText } from '../text-file.js';
import { mergeKnowhowFile } from './knowhow-merge.js';
import { type MergeConflict, type MergeOutcome, type MergeRefusal, mergeSpecFile } from './spec-merge.js';
import type { TextMerge } from './text.js';

/** What git hands a merge driver: `%O %A %B %L %P`. The result is written over `ours`. */
export interface MergeDriverInput {
  base: string;
  ours: string;
  theirs: string;
  /** The path in the repository (`%P`), which decides specs, knowhow or plain text. */
  path: string;
  markerSize?: number;
}

export interface MergeDriverResult {
  path: string;
  kind: 'spec' | 'knowhow' | 'text';
  clean: boolean;
  conflicts: MergeConflict[];
  counts: MergeOutcome['counts'] | null;
  /** Why the entry merge was not used and git's text merge was, or null. */
  fallback: string | null;
}

/** Which merge a repository path gets: `.workflow/specs/*.md`, `.workflow/knowhow/*.md`, else text. */
export function mergeKindOf(path: string): MergeDriverResult['kind'] {
  const p = path.replace(/\\/g, '/');
  if (/(^|\/)\.workflow\/specs\/[^/]+\.md$/i.test(p)) return 'spec';
  if (/(^|\/)\.workflow\/knowhow\/[^/]+\.md$/i.test(p)) return 'knowhow';
  return 'text';
}

/** git's own three-way text merge of three strings (`git merge-file -p`). */
export function gitMergeText(ours: string, base: string, theirs: string, markerSize = 7): TextMerge {
  const dir = mkdtempSync(join(tmpdir(), 'maestro-merge-'));
  try {
    const files = ['ours', 'base', 'theirs'].map((n) => join(dir, n));
    for (const [i, t] of [ours, base, theirs].entries()) writeFileSync(files[i], t);
    const r = runGit(
      ['merge-file', '-p', `--marker-size=${markerSize}`, '-L', 'ours', '-L', 'base', '-L', 'theirs', ...files],
      dir,
    );
    if (r.status < 0 || r.status > 127) {
      throw environmentError('GIT_MERGE_FILE_FAILED', `git merge-file failed: ${r.stderr.trim()}`, {
        hint: 'check that git works here (git --version)',
      });
    }
    return { text: r.stdout, conflicts: r.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** git's normal text merge of the three files, in place over `ours`; returns the conflict count. */
function textFallback(input: MergeDriverInput): number {
  const size = `--marker-size=${input.markerSize ?? 7}`;
  const args = ['merge-file', size, '-L', 'ours', '-L', 'base', '-L', 'theirs', input.ours, input.base, input.theirs];
  const r = runGit(args, dirname(input.ours));
  if (r.status < 0 || r.status > 127) {
    throw environmentError('GIT_MERGE_FILE_FAILED', `git merge-file failed on ${input.path}: ${r.stderr.trim()}`, {
      hint: 'check that git works here (git --version)',
    });
  }
  return r.status;
}

/**
 * The merge driver: merges `.workflow/specs/*.md` entry by entry and `.workflow/knowhow/*.md`
 * document by document, writing the result over `ours` (what git expects). A side that is not
 * UTF-8 or does not parse falls back to git's text merge, and the result says why.
 */
export async function mergeDriver(input: MergeDriverInput): Promise<MergeDriverResult> {
  const kind = mergeKindOf(input.path);
  const texts = [input.base, input.ours, input.theirs].map(readExactText);
  let outcome: MergeOutcome | MergeRefusal = { fallback: 'not a spec or knowhow file' };
  if (kind !== 'text' && texts.some((t) => t === null)) outcome = { fallback: 'a side is not valid UTF-8' };
  else if (kind !== 'text') {
    const [base, ours, theirs] = texts as string[];
    const ctx = {
      mergeText: (a: string, o: string, b: string) => gitMergeText(a, o, b, input.markerSize),
      markerSize: input.markerSize,
    };
    outcome = (kind === 'spec' ? mergeSpecFile : mergeKnowhowFile)(base, ours, theirs, input.path, ctx);
  }
  if ('fallback' in outcome) {
    const conflicts = textFallback(input);
    return {
      path: input.path,
      kind,
      clean: conflicts === 0,
      conflicts: conflicts ? [{ key: 'text', kind: 'prose' }] : [],
      counts: null,
      fallback: outcome.fallback,
    };
  }
  await writeFileAtomic(input.ours, outcome.text);
  return {
    path: input.path,
    kind,
    clean: outcome.conflicts.length === 0,
    conflicts: outcome.conflicts,
    counts: outcome.counts,
    fallback: null,
  };
}
