/** The help button and the help drawer it opens, mounted once for every page. */
import { HelpButton } from "./HelpButton";
import { HelpDrawer } from "./HelpDrawer";

export function HelpCenter() {
  return (
    <>
      <HelpButton />
      <HelpDrawer />
    </>
  );
}
