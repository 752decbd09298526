import { existsSync, statSync } from 'node:fs';
import { normalizeText, refusedError } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { loadCorpus } from '@maestro/spec';

/** Shorter overlaps are ordinary shared phrases, not a copy of a document. */
export const COPY_MIN_CHARS = 40;

/**
 * Seed 003: a turn that brings in a knowledge document must not put a second, unsourced copy of
 * its text into memory. Refuses (exit 1) a memory whose normalised text contains, or is contained
 * in, the text of a knowledge entry (at least 40 characters), naming the entry to cite instead.
 */
export function refuseKnowledgeCopy(root: string, text: string): void {
  const layout = workflowLayout(root);
  if (!existsSync(layout.workflow) || !statSync(layout.workflow).isDirectory()) return;
  const mine = normalizeText(text);
  if (mine.length < COPY_MIN_CHARS) return;
  for (const e of loadCorpus(layout).entries) {
    const theirs = normalizeText(e.content);
    if (theirs.length < COPY_MIN_CHARS) continue;
    if (theirs.includes(mine) || mine.includes(theirs)) {
      throw refusedError(
        'MEMORY_COPIES_KNOWLEDGE',
        `the memory repeats the text of knowledge entry ${e.id}; knowledge is not copied into memory`,
        {
          hint: `remember what is private instead (e.g. "applied ${e.id} to the billing service"), and load the entry with \`maestro load --id ${e.id}\``,
          details: { knowledge_id: e.id },
        },
      );
    }
  }
}
