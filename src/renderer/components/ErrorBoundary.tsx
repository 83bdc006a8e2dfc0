/**
 * A view that throws shows what went wrong in a sentence, never a stack trace, and the rest of the app keeps working.
 */
import { Component, type ReactNode } from 'react';

interface State {
  message: string | null;
}

export class ErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  override state: State = { message: null };

  static getDerivedStateFromError(error: unknown): State {
    return { message: error instanceof Error && error.message ? error.message : 'Something went wrong.' };
  }

  override componentDidUpdate(previous: { resetKey: string }): void {
    // moving to another view tries again
    if (previous.resetKey !== this.props.resetKey && this.state.message !== null)
      this.setState({ message: null });
  }

  override render(): ReactNode {
    if (this.state.message === null) return this.props.children;
    return (
      <div className="error" role="alert">
        <span>This view could not be shown: {this.state.message}</span>
        <button type="button" onClick={() => this.setState({ message: null })}>
          Try again
        </button>
      </div>
    );
  }
}
