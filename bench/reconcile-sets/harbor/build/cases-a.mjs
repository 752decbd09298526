export const CASES_A = [];
