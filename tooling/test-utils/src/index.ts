export type { CliRun } from './cli.js';
export { CLI_BIN, runMaestro, runMaestroAsync } from './cli.js';
export type { CandidateSpec, RunSpec, SessionSpec } from './ledger.js';
export { ledgerCandidate, sessionTree } from './ledger.js';
export { FLOW, maestroFlowTree } from './maestro-flow.js';
export { checkOutputsHere, checkQueuedOutputs, queueOutput } from './output-check.js';
export { seededInts } from './random.js';
export type { Tree } from './tmp.js';
export { copyDir, projectTemplate, readTree, skipDerived, tmpDir, tmpProject, writeTree } from './tmp.js';
