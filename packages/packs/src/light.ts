// `@maestro/packs/light`: what a prompt hook needs when no pack is around, without zod or yaml —
// the data wrapper, the token estimate, the default budget, and where the user configuration lives.
export { DEFAULT_BUDGET } from './budget.js';
export { defaultConfigPath } from './config-path.js';
export { estimateTokens } from './tokens.js';
export { DATA_PREFACE, escapeAttr, neutraliseTags } from './wrap.js';
