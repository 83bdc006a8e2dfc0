/**
 * Zod compiles object parsers with `new Function` when it may. Under our CSP (no
 * 'unsafe-eval') its probe is refused and reported as a CSP violation, so the renderer
 * turns the JIT off before zod is loaded: zod takes its settings from
 * `globalThis.__zod_globalConfig` when it starts (zod/v4/core), and this module imports
 * nothing, so it runs before any schema exists wherever the bundler puts zod. Main keeps
 * the JIT (it validates every synced page).
 */
const zodSettings = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodSettings.__zod_globalConfig = { ...zodSettings.__zod_globalConfig, jitless: true };

export {};
