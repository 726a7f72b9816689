/**
 * The help button and the help drawer it opens, mounted once for every page. The drawer (Radix's
 * dialog, accordion and scroll area, the questions and answers) is fetched when it is first opened,
 * or when the pointer or the keyboard reaches the button: most visits never open it.
 */
import { lazy, Suspense, useState } from "react";
import { withTexts } from "../../i18n";
import { useHelpDrawerOpen } from "../../lib/helpDrawer";
import { HelpButton } from "./HelpButton";

const loadDrawer = withTexts(() => import("./HelpDrawer"));
const HelpDrawer = lazy(() => loadDrawer().then((module) => ({ default: module.HelpDrawer })));

export function HelpCenter() {
  const open = useHelpDrawerOpen();
  const [wanted, setWanted] = useState(false);
  if (open && !wanted) setWanted(true);
  return (
    <>
      <HelpButton onIntent={() => void loadDrawer()} />
      {wanted ? (
        <Suspense fallback={null}>
          <HelpDrawer />
        </Suspense>
      ) : null}
    </>
  );
}
