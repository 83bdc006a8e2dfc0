/**
 * Entry point. Zod's setting comes first, in a module of its own, and the app after it
 * through a dynamic import: the bundler may put zod and the schemas of src/shared in a
 * chunk that this entry imports, and a chunk imported statically runs before any line
 * of this file, so a schema built there would meet the CSP before the setting.
 */
import './app/zod-csp.ts';

void import('./boot.tsx');
