export type { ActivatedPack, ActivationPlan, ActivationRequest, PendingPack, SkippedPack } from './activate.js';
export { MAX_IMPLICIT, planActivation } from './activate.js';
export type { AssembleInput, ContextAssembly, ContextBlock, ContextPackInput, ContextSpecInput } from './assemble.js';
export { assembleContext, SPECS_WRAPPER_NAME, waterFill } from './assemble.js';
export { DEFAULT_BUDGET } from './budget.js';
export type { PackBuildEntry, PackBuildOptions, PackBuildPlan } from './build.js';
export { planPackBuild } from './build.js';
export { writePackBuild } from './build-write.js';
export type { EvidenceCandidate, FileCandidate, PackCandidates } from './candidates.js';
export { collectCandidates, wantsClaims, wantsEvidence } from './candidates.js';
export type { Catalog, CatalogEntry, CatalogOptions, DisableRule, PackState } from './catalog.js';
export { buildCatalog, parseDisableRule } from './catalog.js';
export type { CatalogActivation, CatalogBlock, CatalogBlockEntry } from './catalog-block.js';
export { CATALOG_ELEMENT, CATALOG_NOTE, catalogEntries, escapeText, renderCatalogBlock } from './catalog-block.js';
export type { PacksConfigValues } from './config.js';
export { defaultConfigPath, loadPacksConfig, PacksConfig } from './config.js';
export type { DiscoveryLimits, DiscoveryOptions, DiscoveryResult, ScopeRoot, ScopeScan } from './discover.js';
export { DEFAULT_LIMITS, discoverPacks, SKIPPED_DIRS } from './discover.js';
export { evalPack, evalVerdict, readSuite } from './eval.js';
export { NotRegularFileError, parseFrontmatterYaml, readHead, splitFrontmatter, tryReadHead } from './frontmatter.js';
export type { IgnoreFile, IgnoreMatch } from './gitignore.js';
export { ignoredBy, parseGitignore } from './gitignore.js';
export { buildGraphUnits } from './graph.js';
export type { GraphLayer, GraphRecord, LoadedGraph } from './graph-load.js';
export { GRAPH_FILE_CAP_BYTES, kindOf, loadGraph } from './graph-load.js';
export type { ClaimStanding, GraphUnit } from './graph-render.js';
export { claimStanding } from './graph-render.js';
export type { GuideCandidate, GuideSection } from './guide.js';
export { guideCandidate, readGuideBody } from './guide.js';
export type { GuideResource, ResourceKind } from './guide-tool.js';
export { GUIDE_ELEMENT, guideResources, packCatalog, packGuide } from './guide-tool.js';
export { PACK_READ_BUDGET_BYTES, READ_CAP_BYTES } from './limits.js';
export { listPacks, validatePackTarget } from './list.js';
export type { LoadedCatalog, PackScopeOptions } from './load-catalog.js';
export { isWorkspaceTrusted, loadCatalog, scopeRoots } from './load-catalog.js';
export { loadPackAt } from './load-pack-at.js';
export { readManifest } from './manifest.js';
export { splitSections } from './markdown.js';
export type {
  Activation,
  DiscoveredPack,
  DiscoveryDiagnostic,
  PackGrounding,
  PackIssue,
  PackManifest,
  PackProfile,
  PackScope,
  PackStatus,
  PackTrust,
  RuntimeMode,
} from './model.js';
export { PACK_SCOPES, PACK_STATUSES, PACK_TRUST_LEVELS, STANDARD_TYPES } from './model.js';
export type {
  PackBuildOutputData,
  PackCatalogOutputData,
  PackEvalOutputData,
  PackGuideOutputData,
  PackListOutputData,
  PackResolveOutputData,
  PackValidateOutputData,
} from './output-schemas.js';
export {
  PackBuildOutput,
  PackCatalogOutput,
  PackEvalOutput,
  PackGuideOutput,
  PackListOutput,
  PackResolveOutput,
  PackValidateOutput,
} from './output-schemas.js';
export { readPackHead } from './pack-head.js';
export { checkPackPath, resolvePackPath } from './paths.js';
export { buildContextRecord, recordDirectory, writeContextRecord } from './record.js';
export type { ResolveContextOptions, ResolvedContext } from './resolve.js';
export { CATALOG_SHARE, resolveContext } from './resolve.js';
export { jsonSchemas } from './schemas.js';
export type { PackSelection, SelectedUnit } from './select.js';
export { GUIDE_WHOLE_TOKENS, selectPackContext } from './select.js';
export type {
  CompileRunRecord,
  ContextResolutionRecord,
  SelectionEvalSuite,
  SourceMapFile,
} from './standard-schemas.js';
export { CompileRun, ContextResolution, SelectionEval, SourceMap } from './standard-schemas.js';
export type { TermIndex, TokenEstimator } from './tokens.js';
export { estimateTokens, termIndex, terms } from './tokens.js';
export { effectiveTrust } from './trust.js';
export type { PackValidation } from './validate.js';
export { validatePack } from './validate.js';
export {
  countClosingTags,
  DATA_PREFACE,
  detectInjection,
  escapeAttr,
  neutraliseTags,
  renderPackWrapper,
} from './wrap.js';
