/** "Edit in studio": opens a finished render (or edit) in the modification studio. */
import { PaintRoller } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { buttonClass } from "../ui/buttons";

export function OpenInStudioLink({ jobId }: { jobId: string }) {
  const { t } = useTranslation();
  return (
    <Link href={`/modification-studio?picture=${encodeURIComponent(jobId)}`} className={buttonClass.secondary} data-testid="open-studio">
      <PaintRoller className="size-4" aria-hidden="true" />
      {t("studio.openInStudio")}
    </Link>
  );
}
