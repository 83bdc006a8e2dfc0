/**
 * The last net under the whole window: an error that no view's own boundary caught
 * (ErrorBoundary.tsx) shows a sentence and a reload, never a blank window. The reload
 * opens the first screen, since the address itself may be what failed.
 */
import { Component, type ReactNode } from 'react';

interface State {
  failed: boolean;
}

export function CrashNotice({ onReload }: { onReload: () => void }) {
  return (
    <div className="error" role="alert">
      <p>
        Fieldbook ran into a problem and could not show this window. Your data and queued changes are kept.
      </p>
      <button type="button" onClick={onReload}>
        Reload Fieldbook
      </button>
    </div>
  );
}

function reloadAtFirstScreen(): void {
  window.location.hash = '#/';
  window.location.reload();
}

export class RootErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override render(): ReactNode {
    return this.state.failed ? <CrashNotice onReload={reloadAtFirstScreen} /> : this.props.children;
  }
}
