import { readFileSync } from 'node:fs';
import { MaestroError } from '@maestro/core';

/**
 * The project vocabulary on top of the general lexicon (`@maestro/lexicon`): stance and
 * replacement cues, scopes, alternative sets, units and software-engineering concept groups. It
 * is data (`data/vocabulary.json`), read once on first use; editing it changes verdicts, so bump
 * MATCHER_REVISION with it.
 */
export interface Vocabulary {
  /** `form|form|…` per line, first form names the concept; a leading `~` marks a generic one. */
  concepts: string[];
  cues: {
    stopwordsEn: string[];
    stopwordsZh: string[];
    stanceNegEn: string[];
    stancePosEn: string[];
    permit: string[];
    stanceNegZh: string[];
    stancePosZh: string[];
    /** [verb, the concept whose polarity it flips]: skip → run. */
    flipVerbs: [string, string][];
    choiceEn: string[];
    choiceZh: string[];
    supersedeEn: string[];
    supersedeZh: string[];
    imperativeEn: string[];
    imperativeZh: string[];
  };
  scope: {
    env: string[];
    layer: string[];
    nounsEn: string[];
    nounsZh: string[];
    /** `set: member, member, …` */
    alternatives: string[];
    boundMax: string[];
    boundMin: string[];
  };
  /** [forms `a|b`, dimension, factor to the dimension's base unit]: 30 s and 30000 ms compare equal. */
  units: [string, string, number][];
  numberWordsEn: Record<string, number>;
  /** Sequence cues of the order slot (see `order.ts`). */
  order?: {
    firstEn?: string[];
    secondEn?: string[];
    leadSecondEn?: string[];
    leadFirstEn?: string[];
    firstZh?: string[];
    postSecondZh?: string[];
    postFirstZh?: string[];
  };
  /** Approval verbs and agent cues of the role slot (see `role.ts`). */
  role?: {
    verbsEn?: string[];
    agentAfterEn?: string[];
    verbsZh?: string[];
    agentBeforeZh?: string[];
    agentOwnerZh?: string[];
  };
}

const DATA = new URL('../../data/vocabulary.json', import.meta.url);
let cached: Vocabulary | null = null;

export function vocabulary(): Vocabulary {
  cached ??= load();
  return cached;
}

function load(): Vocabulary {
  let raw: Vocabulary & { schema?: string };
  try {
    raw = JSON.parse(readFileSync(DATA, 'utf8'));
  } catch (cause) {
    throw new MaestroError('VOCABULARY_MISSING', `cannot read the matcher vocabulary ${DATA.pathname}`, {
      hint: 'restore packages/reconcile/data/vocabulary.json (for example `git checkout -- packages/reconcile/data`)',
      cause,
    });
  }
  if (raw.schema !== 'maestro-vocabulary/1' || !Array.isArray(raw.concepts)) {
    throw new MaestroError('VOCABULARY_MISSING', `${DATA.pathname} is not a maestro-vocabulary/1 document`, {
      hint: 'restore packages/reconcile/data/vocabulary.json (for example `git checkout -- packages/reconcile/data`)',
    });
  }
  return raw;
}
