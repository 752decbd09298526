export { FILES_SECTION, type FileState, fileStates, RACY_WINDOW_MS, tryWrite } from './files.js';
export { takeStoreNotices } from './notices.js';
export {
  BUSY_TIMEOUT_MS,
  closeStores,
  type Database,
  type DerivedStore,
  type OpenStoreOptions,
  openStore,
  type SectionSpec,
  STORE_FILE,
  STORE_SCHEMA,
  type Statement,
} from './store.js';
