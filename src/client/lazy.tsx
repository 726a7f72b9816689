/**
 * Parts of the app that are not in the first load (issue 15): each is fetched with the texts it
 * shows (i18n parts) and, when it calls tRPC's hooks, with the data layer (data.tsx: tRPC's React
 * client, React Query, superjson), which then wraps it. Each can be fetched ahead of need
 * (`preload`), e.g. when the pointer reaches a link to it.
 */
import { lazy, type ComponentType } from "react";
import { withTexts, type TextPart } from "./i18n";

/** The data layer: one module for the whole tab. */
export const loadData = () => import("./data");

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => (loading ??= load());
}

export type LazyPart<P extends object> = ComponentType<P> & { preload(): Promise<unknown> };

/** A lazily loaded component that reads tRPC, wrapped in the data layer's providers. */
export function lazyWithData<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  parts: readonly TextPart[] = ["rest"],
): LazyPart<P> {
  const preload = once(() =>
    Promise.all([withTexts(load, parts)(), loadData()]).then(([module, data]) => ({ default: data.withData(module.default) })),
  );
  return Object.assign(lazy(preload), { preload });
}
