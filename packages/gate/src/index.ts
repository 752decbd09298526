export type { GateOptions } from './gate.js';
export { knowledgeGate } from './gate.js';
export type { GateReason, GateResult, GateSession } from './schemas.js';
export { GATE_REASONS, GateOutput, GateReasonSchema, GateSessionSchema, jsonSchemas } from './schemas.js';
