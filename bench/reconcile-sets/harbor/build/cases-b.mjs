export const CASES_B = [];
