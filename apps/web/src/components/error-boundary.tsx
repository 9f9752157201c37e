import type { ErrorInfo, ReactNode } from 'react';
import { Component } from 'react';
import { ErrorScreen } from './error-screen';

interface Props {
  children: ReactNode;
  /** When this changes after a failure (the route's path, say), the children are tried again. */
  resetKey?: string;
}

interface State {
  failed: boolean;
  /** The resetKey the failure happened under. */
  failedAt: string | undefined;
}

/** Catches render errors below it and shows the error screen instead of a blank page. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, failedAt: undefined };

  /** Switches to the error screen after a render error. */
  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  /** Remembers where it failed; leaving for another path clears the failure. */
  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (!state.failed) return state.failedAt === props.resetKey ? null : { failedAt: props.resetKey };
    return state.failedAt === props.resetKey ? null : { failed: false, failedAt: props.resetKey };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // Kept in the console for whoever debugs the report; the user sees the friendly screen.
    console.error('Unhandled render error', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <ErrorScreen /> : this.props.children;
  }
}
