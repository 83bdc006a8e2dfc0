/** An address the app cannot read (typed by hand, or cut short when pasted): say so, and offer the way back. */
import { hrefFor } from '../app/router.ts';

export function NotFoundView() {
  return (
    <section className="view" aria-labelledby="not-found-heading">
      <h1 id="not-found-heading">Page not found</h1>
      <p>
        Fieldbook has no page at this address. <a href={hrefFor('users')}>Back to users</a>
      </p>
    </section>
  );
}
