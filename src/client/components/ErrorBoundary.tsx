import { Component, type ErrorInfo, type ReactNode } from "react";
import { ErrorScreen } from "./ErrorScreen";

interface Props {
  children: ReactNode;
}
interface State {
  error: Error | null;
}

/** Catches rendering errors below it and shows the generic error screen of spec section 2. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error("Page failed to render", error, info.componentStack);
    // Analytics is not in the first load.
    void import("../lib/analytics").then(({ pagePath, track }) =>
      track({
        category: "error",
        action: "page_render_error",
        label: error.message,
        metadata: { page: pagePath(window.location.pathname) },
      }),
    );
  }

  override render() {
    return this.state.error ? <ErrorScreen message={this.state.error.message} /> : this.props.children;
  }
}
