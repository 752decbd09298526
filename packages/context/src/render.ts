import { DATA_PREFACE, escapeAttr, neutraliseTags } from '@maestro/packs/light';
import { RECALLED_ELEMENT } from './config.js';
import type { RecalledEntry } from './select.js';

/**
 * The `<recalled-knowledge>` block: the project's entries recalled for a prompt, as data. Every
 * value from the corpus is neutralised, so an entry cannot close the wrapper or open a role tag;
 * a contested entry carries its flag on its own header line. Pure; '' for no entries.
 */
export function renderRecalled(entries: readonly RecalledEntry[]): string {
  if (entries.length === 0) return '';
  const head =
    `<${RECALLED_ELEMENT} source=".workflow" status="active" mode="data">\n${DATA_PREFACE}\n` +
    `Recalled: ${entries.map((e) => neutraliseTags(e.id)).join(', ')}\n`;
  const body = entries.map(renderEntry).join('\n');
  return `${head}\n${body}</${RECALLED_ELEMENT}>\n`;
}

function renderEntry(e: RecalledEntry): string {
  const category = e.category ? ` [${escapeAttr(e.category)}]` : '';
  const flag = e.contested
    ? `\n(contested: ${neutraliseTags(e.contested)}; check with the user before relying on it)`
    : '';
  const text = neutraliseTags(e.text).trimEnd();
  const cut = e.cut ? `\n[cut to fit; \`maestro load --id ${neutraliseTags(e.id)}\` prints it whole]` : '';
  return `--- ${neutraliseTags(e.id)}${category} ${neutraliseTags(e.title)} ---${flag}\n${text}${cut}\n`;
}
