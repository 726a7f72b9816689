/** What a toast from the first load's parts needs, fetched when the first one is due (lib/notify). */
export { toast } from "sonner";
export { friendlyError, translateServerMessage } from "./friendlyError";
export { MESSAGES } from "../../shared/messages";
