// All cases, in a fixed pseudo-random order (so case ids do not reveal the label).
import { createHash } from 'node:crypto';
import { EXACT, SEMANTIC, EXTENDS } from './cases-a.mjs';
import { RELATED, CONFLICT, SUPERSEDE, UNIQUE } from './cases-b.mjs';
const h = (c) => createHash('sha256').update('s4:' + c.kind + ':' + c.title).digest('hex');
export const CASES = [...EXACT, ...SEMANTIC, ...EXTENDS, ...RELATED, ...CONFLICT, ...SUPERSEDE, ...UNIQUE]
  .map(c => [h(c), c]).sort((a, b) => a[0].localeCompare(b[0])).map(([, c]) => c);
