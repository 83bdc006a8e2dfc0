/**
 * Zod compiles object parsers with `new Function` when it may. Under our CSP
 * (no 'unsafe-eval') its probe is refused and reported as a CSP violation, so the
 * renderer turns the JIT off before any schema is built. Imported first by main.tsx;
 * main keeps the JIT (it validates every synced page).
 */
import { config } from 'zod';

config({ jitless: true });
