// better-sqlite3 (the derived-state store, @maestro/store) builds its addon with node-gyp at install
// time, and node-gyp downloads Node's headers from nodejs.org unless told where they are. Machines
// without that access (CI here) have the headers installed beside node, and npm is set to use them,
// but pnpm (since 11) passes only a few variables to install scripts and does not read npm's
// `nodedir`. This hands node-gyp the local headers when they exist and the user chose nothing else.
const { existsSync } = require('node:fs');
const { dirname, join } = require('node:path');

function localNodeDir() {
  if (process.env.npm_config_nodedir) return process.env.npm_config_nodedir;
  const prefix = dirname(dirname(process.execPath));
  return existsSync(join(prefix, 'include', 'node', 'node.h')) ? prefix : null;
}

module.exports = {
  hooks: {
    updateConfig(config) {
      const nodedir = localNodeDir();
      if (nodedir) config.extraEnv = { ...config.extraEnv, npm_config_nodedir: nodedir };
      return config;
    },
  },
};
