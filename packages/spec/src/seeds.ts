import type { SpecCategory } from './model.js';

/** The seed spec files maestro-flow creates, in file-name → category order. */
export const SEED_FILES: readonly {
  file: string;
  category: SpecCategory;
  title: string;
  priority: 'high' | 'medium';
}[] = [
  { file: 'coding-conventions.md', category: 'coding', title: 'Coding Conventions', priority: 'high' },
  { file: 'architecture-constraints.md', category: 'arch', title: 'Architecture Constraints', priority: 'high' },
  { file: 'debug-notes.md', category: 'debug', title: 'Debug Notes', priority: 'medium' },
  { file: 'test-conventions.md', category: 'test', title: 'Test Conventions', priority: 'medium' },
  { file: 'review-standards.md', category: 'review', title: 'Review Standards', priority: 'medium' },
  { file: 'learnings.md', category: 'learning', title: 'Learnings', priority: 'medium' },
  { file: 'ui-conventions.md', category: 'ui', title: 'UI Conventions', priority: 'medium' },
];

/** The file new entries of a category land in. `quality-rules.md` also maps to review when present. */
export const CATEGORY_FILE: Readonly<Record<SpecCategory, string>> = Object.fromEntries(
  SEED_FILES.map((s) => [s.category, s.file]),
) as Record<SpecCategory, string>;

/** File stem → category, for files that carry no category in their frontmatter. */
export const FILE_CATEGORY: Readonly<Record<string, SpecCategory>> = {
  ...Object.fromEntries(SEED_FILES.map((s) => [s.file, s.category])),
  'quality-rules.md': 'review',
};

/** The line under a seed file's heading that says how to add entries (not knowledge: health skips it). */
export function seedGuidance(category: SpecCategory): string {
  return `Rules and notes of category \`${category}\`. Add entries with \`maestro spec add ${category} "<title>" "<content>"\`.`;
}

export function seedFileText(seed: (typeof SEED_FILES)[number]): string {
  return [
    '---',
    `title: "${seed.title}"`,
    `readMode: ${seed.priority === 'high' ? 'required' : 'optional'}`,
    `priority: ${seed.priority}`,
    `category: ${seed.category}`,
    'keywords:',
    `  - ${seed.category}`,
    '---',
    '',
    `# ${seed.title}`,
    '',
    seedGuidance(seed.category),
    '',
    '## Entries',
    '',
  ].join('\n');
}
