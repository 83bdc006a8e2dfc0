import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CrashNotice, RootErrorBoundary } from './RootErrorBoundary.tsx';

/** What the boundary shows once React has reported an error below it. */
function afterAnError(): string {
  const boundary = new RootErrorBoundary({ children: <p>The window&apos;s content</p> });
  boundary.state = RootErrorBoundary.getDerivedStateFromError();
  return renderToStaticMarkup(<>{boundary.render()}</>);
}

describe('the window after an error no view caught', () => {
  it('shows the app while nothing has failed', () => {
    const boundary = new RootErrorBoundary({ children: <p>The window&apos;s content</p> });
    expect(renderToStaticMarkup(<>{boundary.render()}</>)).toContain('content');
  });
  it('replaces the blank window with a sentence and a reload', () => {
    const shown = afterAnError();
    expect(shown).not.toContain('content');
    expect(shown).toContain('Fieldbook ran into a problem');
    expect(shown).toContain('Reload Fieldbook');
  });
  it('tells the coordinator their queued changes are kept, in plain words', () => {
    const notice = renderToStaticMarkup(<CrashNotice onReload={() => undefined} />);
    expect(notice).toContain('queued changes are kept');
    expect(notice).not.toMatch(/Error|undefined|stack/);
  });
});
