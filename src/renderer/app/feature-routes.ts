/**
 * Every tab: the built-in views', then those of features built outside this
 * folder, one side-effect import each (each such file calls `registerRoute` from ./routes.tsx).
 */
import './builtin-routes.tsx';
import '../features/outbox/route.tsx';
import '../features/undo/route.tsx';
import '../features/changes/route.tsx';
import '../features/report/route.tsx';
import '../features/requirements/route.tsx';
