/**
 * The space switcher of the navigation bar (issue 28): "Personal" or one of the user's teams, the
 * space the dashboard, upload, projects and studio work in (remembered on the server). The bar is
 * part of the first load and the menu reads tRPC, so the menu (Radix, the data layer and its texts)
 * is fetched after the first load, for signed-in users only.
 */
import { Suspense } from "react";
import { lazyWithData } from "../lazy";
import { useAfterFirstLoad } from "../lib/afterFirstLoad";

const SpaceSwitcherMenu = lazyWithData(() => import("./SpaceSwitcherMenu"));

export function SpaceSwitcher({ wide = false }: { wide?: boolean }) {
  const loaded = useAfterFirstLoad();
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <SpaceSwitcherMenu wide={wide} />
    </Suspense>
  );
}
