/** The texts of the mails the app sends. */
import { PRODUCT_NAME } from "../../shared/constants";
import type { MailMessage } from "./mailer";

export function confirmSignUpMail(to: string, fullName: string, link: string): MailMessage {
  return {
    to,
    subject: `Confirm your ${PRODUCT_NAME} account`,
    text: [
      `Hello ${fullName},`,
      "",
      `Welcome to ${PRODUCT_NAME}! Please confirm your e-mail address by opening this link:`,
      link,
      "",
      "If you did not create this account, you can ignore this message.",
    ].join("\n"),
  };
}

export function resetPasswordMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: `Reset your ${PRODUCT_NAME} password`,
    text: [
      "Someone (hopefully you) asked to reset the password of your account.",
      "Open this link within 1 hour to choose a new password:",
      link,
      "",
      "The link works once. If you did not ask for it, you can ignore this message: your password stays as it is.",
    ].join("\n"),
  };
}
