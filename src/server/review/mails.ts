/** The mail a link's maker gets for each decision of a client, in the language they made the link in. */
import type { Language } from "../../shared/constants";
import type { ReviewDecisionState } from "../../shared/review";
import type { MailMessage } from "../mail/mailer";

interface DecisionMail {
  client: string;
  project: string;
  state: ReviewDecisionState;
  link: string;
  studio: string;
}

const TEXTS: Record<Language, { subject(mail: DecisionMail): string; body(mail: DecisionMail): string[] }> = {
  en: {
    subject: (mail) =>
      mail.state === "approved"
        ? `${mail.client} approved a picture of ${mail.project}`
        : `${mail.client} asked for changes to a picture of ${mail.project}`,
    body: (mail) => [
      mail.state === "approved"
        ? `${mail.client} approved a picture of the project "${mail.project}" through your review link.`
        : `${mail.client} asked for changes to a picture of the project "${mail.project}" through your review link.`,
      "",
      "Open the project to see the picture, its comments and decisions:",
      mail.link,
      "",
      `— ${mail.studio}`,
    ],
  },
  es: {
    subject: (mail) =>
      mail.state === "approved"
        ? `${mail.client} ha aprobado una imagen de ${mail.project}`
        : `${mail.client} ha pedido cambios en una imagen de ${mail.project}`,
    body: (mail) => [
      mail.state === "approved"
        ? `${mail.client} ha aprobado una imagen del proyecto «${mail.project}» desde tu enlace de revisión.`
        : `${mail.client} ha pedido cambios en una imagen del proyecto «${mail.project}» desde tu enlace de revisión.`,
      "",
      "Abre el proyecto para ver la imagen, sus comentarios y decisiones:",
      mail.link,
      "",
      `— ${mail.studio}`,
    ],
  },
  fr: {
    subject: (mail) =>
      mail.state === "approved"
        ? `${mail.client} a approuvé une image de ${mail.project}`
        : `${mail.client} a demandé des modifications d'une image de ${mail.project}`,
    body: (mail) => [
      mail.state === "approved"
        ? `${mail.client} a approuvé une image du projet « ${mail.project} » depuis votre lien de relecture.`
        : `${mail.client} a demandé des modifications d'une image du projet « ${mail.project} » depuis votre lien de relecture.`,
      "",
      "Ouvrez le projet pour voir l'image, ses commentaires et décisions :",
      mail.link,
      "",
      `— ${mail.studio}`,
    ],
  },
};

export function decisionMail(language: Language, to: string, mail: DecisionMail): MailMessage {
  const texts = TEXTS[language];
  return { to, subject: texts.subject(mail), text: texts.body(mail).join("\n"), fromName: mail.studio };
}
