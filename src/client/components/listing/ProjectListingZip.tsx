/** A project's listing pictures as one zip (pictures, originals, manifest.csv); shown once the project has any. */
import { FileArchive } from "lucide-react";
import { useTranslation } from "react-i18next";
import { LISTING_ROUTES } from "../../../shared/listing";
import { trpc } from "../../trpc";
import { buttonClass } from "../ui/buttons";

export function ProjectListingZip({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const count = trpc.listing.projectCount.useQuery({ projectId }, { staleTime: 0 }).data?.count ?? 0;
  if (count === 0) return null;
  return (
    <a
      href={LISTING_ROUTES.projectZip(projectId)}
      download
      className={buttonClass.secondary}
      title={t("listing.projectZipHint", { count })}
      data-testid="listing-project-zip"
    >
      <FileArchive className="size-4" aria-hidden="true" />
      {t("listing.projectZip")}
    </a>
  );
}
