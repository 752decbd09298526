/** The context budget in estimated tokens when none is given (kept apart so `@maestro/packs/light` can offer it). */
export const DEFAULT_BUDGET = 2000;
