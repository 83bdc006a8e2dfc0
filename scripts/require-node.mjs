// Imported first by scripts/start.mjs and scripts/test.mjs: stops at once, with
// the version needed, on a Node too old to run the project.
import { fileURLToPath } from 'node:url';
import { nodeVersionProblem, requiredNodeRange } from './preflight.mjs';

const problem = nodeVersionProblem(
  process.version,
  requiredNodeRange(fileURLToPath(new URL('../package.json', import.meta.url))),
);
if (problem) {
  console.error(problem);
  process.exit(1);
}
