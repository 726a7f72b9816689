/**
 * The backup codes, shown once after two-factor is turned on, with Copy and Download (a .txt file
 * made in the browser: the codes never travel again) so they are easy to keep somewhere safe.
 */
import { Copy, Download } from "lucide-react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { fileNamePrefix } from "../../../shared/studio";
import { useSession } from "../../hooks/useSession";
import { copyText } from "../../lib/format";
import { useStudio } from "../../lib/studio";
import { secondaryButtonClass } from "./fields";

/** The file's name: the studio's and the day's, so a second set does not overwrite the first. */
function fileName(studioName: string, now: Date): string {
  return `${fileNamePrefix(studioName)}-backup-codes-${now.toISOString().slice(0, 10)}.txt`;
}

export function BackupCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  const email = useSession().user?.email ?? "";
  const studio = useStudio().name;

  const copy = async () => {
    if (await copyText(codes.join("\n"))) toast.success(t("flows.backupCodes.copied"), { id: "backup-codes-copied" });
    else toast.error(t("flows.backupCodes.copyFailed"), { id: "backup-codes-copied" });
  };

  const download = () => {
    const text = [t("flows.backupCodes.fileTitle", { product: studio, email }), t("flows.backupCodes.fileNote"), "", ...codes, ""].join(
      "\r\n",
    );
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = fileName(studio, new Date());
    document.body.appendChild(link);
    link.click();
    link.remove();
    // The download has its own copy once started; the next tick is late enough.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };

  const buttonClass = `${secondaryButtonClass} sm:w-auto`;
  return (
    <div className="space-y-3">
      <ul className="grid max-w-sm grid-cols-2 gap-2 font-mono text-sm" data-testid="backup-code-list">
        {codes.map((backupCode) => (
          <li key={backupCode} className="rounded-md bg-slate-100 px-3 py-1.5 text-center tracking-widest dark:bg-slate-800">
            {backupCode}
          </li>
        ))}
      </ul>
      <div className="flex max-w-sm flex-col gap-2 sm:flex-row">
        <button type="button" className={buttonClass} onClick={() => void copy()}>
          <Copy className="size-4" aria-hidden="true" />
          {t("flows.backupCodes.copy")}
        </button>
        <button type="button" className={buttonClass} onClick={download}>
          <Download className="size-4" aria-hidden="true" />
          {t("flows.backupCodes.download")}
        </button>
      </div>
    </div>
  );
}
