export type { LocatedCandidate, SkillCandidate, StageSkillRequest, StageSkillResult } from './candidates.js';
export { allCandidates, findCandidate, readCandidates, SkillCandidatesFile, stageSkill } from './candidates.js';
export type { CatalogSkill, LoadedSkill, SkillCatalog } from './catalog.js';
export { loadSkill, neutralizeClosers, searchSkills, skillCatalog } from './catalog.js';
export type { WorkingCopyCheck } from './commit.js';
export { checkWorkingCopy } from './commit.js';
export type { DiscoveredSkill, SkillDiagnostic, SkillDiscovery, SkillRoots } from './discover.js';
export { discoverSkills } from './discover.js';
export type { SkillEvaluation, SkillEvidenceData } from './evaluate.js';
export { evaluateSkill, judgeCase, readEvaluation, readEvidence, SkillEvidence } from './evaluate.js';
export { kindOf, manifestHash, SKILL_LIMITS, walkSkill } from './files.js';
export type { RollbackResult, SkillStatus } from './lifecycle.js';
export { rollbackSkill, setSkillDisabled, skillStatus } from './lifecycle.js';
export type {
  SkillFile,
  SkillFileKind,
  SkillIssue,
  SkillProperties,
  SkillScope,
  SkillState,
  SkillValidation,
  SkillVersionRecord,
} from './model.js';
export { FILE_KINDS, SKILL_SCOPES } from './model.js';
export {
  jsonSchemas,
  SkillListOutput,
  SkillLoadOutput,
  SkillReleaseOutput,
  SkillRollbackOutput,
  SkillSearchOutput,
  SkillStageOutput,
  SkillStatusOutput,
  SkillToggleOutput,
  SkillValidateOutput,
} from './output-schemas.js';
export type { KnownSkill, SkillMatch } from './reconcile.js';
export { matchSkill, NEAR_DUPLICATE, similarity } from './reconcile.js';
export type { ReleaseRequest, ReleaseResult } from './release.js';
export { releaseSkill } from './release.js';
export { assertSkillName, governedSkills, readState, SkillStateSchema, skillPaths } from './store.js';
export { validateSkill } from './validate.js';
