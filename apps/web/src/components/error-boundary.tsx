import type { ErrorInfo, ReactNode } from 'react';
import { Component } from 'react';
import { ErrorScreen } from './error-screen';

interface State {
  failed: boolean;
}

/** Catches render errors below it and shows the error screen instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  /** Switches to the error screen after a render error. */
  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // Kept in the console for whoever debugs the report; the user sees the friendly screen.
    console.error('Unhandled render error', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <ErrorScreen /> : this.props.children;
  }
}
