import { toast } from "sonner";
import { copyText } from "../../lib/format";

/** Copies `text`; when the browser refuses, selects it in `fallback` so that the user can press Ctrl+C. */
export async function copyOrSelect(text: string, fallback: HTMLElement | null, failedMessage: string): Promise<boolean> {
  if (await copyText(text)) return true;
  if (fallback instanceof HTMLInputElement) {
    fallback.focus();
    fallback.select();
  } else if (fallback) {
    window.getSelection()?.selectAllChildren(fallback);
  }
  toast.info(failedMessage);
  return false;
}
