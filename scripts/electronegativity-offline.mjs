// Loaded with `--import` into the Electronegativity process by scripts/audit.mjs.
// Electronegativity downloads translations from the internet at start (through
// `got`); the audit must never leave this machine, so that one call fails at once
// and it falls back to its bundled English strings.
import Module, { createRequire } from 'node:module';
import path from 'node:path';

const requireHere = createRequire(import.meta.url);
const toolDir = path.dirname(requireHere.resolve('@doyensec/electronegativity/package.json'));
const gotPath = createRequire(path.join(toolDir, 'package.json')).resolve('got');
const offline = new Module(gotPath);
offline.filename = gotPath;
offline.loaded = true;
offline.exports = () => Promise.reject(new Error('offline: the audit makes no network requests'));
Module._cache[gotPath] = offline;
