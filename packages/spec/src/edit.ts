/**
 * `@maestro/spec/edit`: the single-entry writers without the published schemas (no zod), for
 * commands that must start fast (`maestro spec add`). The same functions as the main entry exports.
 */

export { SPEC_CATEGORIES } from './model.js';
export type { AddSpecInput, AddSpecResult } from './spec-add.js';
export { addSpecEntry } from './spec-add.js';
