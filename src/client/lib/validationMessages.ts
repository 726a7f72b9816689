/** Translation of the validation messages of spec §5, which the shared schemas give in English. */
import { VALIDATION_MESSAGES } from "../../shared/auth-schemas";
import { translateServerMessage, type Translate } from "./friendlyError";

const validationNames = Object.keys(VALIDATION_MESSAGES) as (keyof typeof VALIDATION_MESSAGES)[];

/** The i18n key of a validation message of spec §5, when it is one. */
export function validationMessageKey(message: string): string | null {
  const name = validationNames.find((candidate) => VALIDATION_MESSAGES[candidate] === message);
  return name ? `validation.${name}` : null;
}

/** Translates a validation or server message the client knows; any other message is returned unchanged. */
export function translateMessage(message: string, t: Translate): string {
  const key = validationMessageKey(message);
  return key ? t(key) : translateServerMessage(message, t);
}
