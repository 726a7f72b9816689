/**
 * Parts of the app that are not in the first load (issue 15): each is fetched with the texts it
 * shows (i18n parts) and, when it calls tRPC's hooks, with the data layer (data.tsx: tRPC's React
 * client, React Query, superjson), which then wraps it. Each can be fetched ahead of need
 * (`preload`), e.g. when the pointer reaches a link to it.
 */
import { lazy, useState, type ComponentType } from "react";
import { withTexts, type TextPart } from "./i18n";

/** The data layer: one module for the whole tab. */
export const loadData = () => import("./data");

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => (loading ??= load());
}

export type LazyPart<P extends object> = ComponentType<P> & { preload(): Promise<unknown> };

/**
 * A lazily loaded component that reads tRPC, wrapped in the data layer's providers. Once its code
 * is here (preloaded when the pointer reached a link) it renders at once: React.lazy would suspend
 * even then, and React holds a suspended page back for at least 300 ms before showing it.
 */
export function lazyWithData<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  parts: readonly TextPart[] = ["rest"],
): LazyPart<P> {
  let loaded: ComponentType<P> | null = null;
  const preload = once(() =>
    Promise.all([withTexts(load, parts)(), loadData()]).then(([module, data]) => {
      loaded = data.withData(module.default);
      return { default: loaded };
    }),
  );
  const Lazy = lazy(preload);
  const Part = (props: P) => {
    // Chosen once per mount: switching from Lazy to the loaded component later would remount it.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  };
  return Object.assign(Part, { preload });
}
