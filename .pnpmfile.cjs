// better-sqlite3 (the derived-state store) builds its addon with node-gyp at install time. node-gyp
// downloads Node's headers unless told where they are; pnpm does not pass npm's `nodedir` setting
// on, and machines without access to nodejs.org (CI here) have the headers installed beside node.
// Point node-gyp at them when they are there and the user has not chosen otherwise.
const { existsSync } = require('node:fs');
const { dirname, join } = require('node:path');

if (!process.env.npm_config_nodedir) {
  const prefix = dirname(dirname(process.execPath));
  if (existsSync(join(prefix, 'include', 'node', 'node.h'))) process.env.npm_config_nodedir = prefix;
}

module.exports = { hooks: {} };
