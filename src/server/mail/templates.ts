/** The mails the app sends, in the language the user was using when they asked for them. */
import type { Language } from "../../shared/constants";
import type { MailMessage } from "./mailer";

interface Texts {
  confirmSubject: string;
  confirmBody: (fullName: string, link: string) => string[];
  resetSubject: string;
  resetBody: (link: string) => string[];
  lockedSubject: string;
  lockedBody: string[];
  inviteSubject: (team: string) => string;
  inviteBody: (inviter: string, team: string, role: "admin" | "member", link: string, days: number) => string[];
  webhookOffSubject: string;
  webhookOffBody: (url: string) => string[];
}

const TEXTS: Record<Language, Texts> = {
  en: {
    confirmSubject: `Confirm your {product} account`,
    confirmBody: (fullName, link) => [
      `Hello ${fullName},`,
      "",
      `Welcome to {product}! Please confirm your e-mail address by opening this link:`,
      link,
      "",
      "If you did not create this account, you can ignore this message.",
    ],
    resetSubject: `Reset your {product} password`,
    resetBody: (link) => [
      "Someone (hopefully you) asked to reset the password of your account.",
      "Open this link within 1 hour to choose a new password:",
      link,
      "",
      "The link works once. If you did not ask for it, you can ignore this message: your password stays as it is.",
    ],
    lockedSubject: `Your {product} sign-in codes were guessed wrong many times`,
    lockedBody: [
      "Someone gave your password correctly, then entered many wrong two-factor codes.",
      "Two-factor sign-in to your account is locked for an hour.",
      "",
      "If this was not you, your password is known to someone else: change it as soon as you can.",
    ],
    inviteSubject: (team) => `Join ${team} on {product}`,
    inviteBody: (inviter, team, role, link, days) => [
      `${inviter} invites you to join the team ${team} on {product} as ${role === "admin" ? "an Admin" : "a Member"}.`,
      "",
      "Open this link to accept (sign in, or create an account, with this e-mail address):",
      link,
      "",
      `The link works once and for ${days} days. If you do not know this team, you can ignore this message.`,
    ],
    webhookOffSubject: `A {product} webhook was turned off`,
    webhookOffBody: (url) => [
      "Your webhook endpoint failed every delivery for a day, so it has been turned off:",
      url,
      "",
      "Events that happen while it is off are not kept for it. Fix the endpoint, then turn it on again on the Developers page; send a test event to check it.",
    ],
  },
  es: {
    confirmSubject: `Confirma tu cuenta de {product}`,
    confirmBody: (fullName, link) => [
      `Hola, ${fullName}:`,
      "",
      `¡Te damos la bienvenida a {product}! Confirma tu dirección de correo abriendo este enlace:`,
      link,
      "",
      "Si no creaste esta cuenta, puedes ignorar este mensaje.",
    ],
    resetSubject: `Restablece tu contraseña de {product}`,
    resetBody: (link) => [
      "Alguien (esperamos que tú) ha pedido restablecer la contraseña de tu cuenta.",
      "Abre este enlace en el plazo de 1 hora para elegir una contraseña nueva:",
      link,
      "",
      "El enlace solo funciona una vez. Si no lo pediste, puedes ignorar este mensaje: tu contraseña no cambia.",
    ],
    lockedSubject: `Muchos códigos incorrectos al iniciar sesión en {product}`,
    lockedBody: [
      "Alguien introdujo tu contraseña correctamente y después muchos códigos de verificación en dos pasos incorrectos.",
      "El inicio de sesión en dos pasos de tu cuenta queda bloqueado durante una hora.",
      "",
      "Si no fuiste tú, alguien más conoce tu contraseña: cámbiala cuanto antes.",
    ],
    inviteSubject: (team) => `Únete a ${team} en {product}`,
    inviteBody: (inviter, team, role, link, days) => [
      `${inviter} te invita a unirte al equipo ${team} en {product} como ${role === "admin" ? "Administrador" : "Miembro"}.`,
      "",
      "Abre este enlace para aceptar (inicia sesión, o crea una cuenta, con esta dirección de correo):",
      link,
      "",
      `El enlace solo funciona una vez y durante ${days} días. Si no conoces este equipo, puedes ignorar este mensaje.`,
    ],
    webhookOffSubject: `Se ha desactivado un webhook de {product}`,
    webhookOffBody: (url) => [
      "Tu endpoint de webhook ha fallado todas las entregas durante un día, así que se ha desactivado:",
      url,
      "",
      "Los eventos que ocurran mientras esté desactivado no se guardan para él. Arregla el endpoint y vuelve a activarlo en la página Desarrolladores; envía un evento de prueba para comprobarlo.",
    ],
  },
  fr: {
    confirmSubject: `Confirmez votre compte {product}`,
    confirmBody: (fullName, link) => [
      `Bonjour ${fullName},`,
      "",
      `Bienvenue sur {product} ! Confirmez votre adresse e-mail en ouvrant ce lien :`,
      link,
      "",
      "Si vous n'avez pas créé ce compte, vous pouvez ignorer ce message.",
    ],
    resetSubject: `Réinitialisez votre mot de passe {product}`,
    resetBody: (link) => [
      "Quelqu'un (vous, espérons-le) a demandé à réinitialiser le mot de passe de votre compte.",
      "Ouvrez ce lien dans l'heure pour choisir un nouveau mot de passe :",
      link,
      "",
      "Le lien ne fonctionne qu'une fois. Si vous n'avez rien demandé, ignorez ce message : votre mot de passe ne change pas.",
    ],
    lockedSubject: `Nombreux codes erronés à la connexion {product}`,
    lockedBody: [
      "Quelqu'un a saisi votre mot de passe correctement, puis de nombreux codes de double authentification erronés.",
      "La connexion à double authentification de votre compte est bloquée pendant une heure.",
      "",
      "Si ce n'était pas vous, quelqu'un d'autre connaît votre mot de passe : changez-le dès que possible.",
    ],
    inviteSubject: (team) => `Rejoignez ${team} sur {product}`,
    inviteBody: (inviter, team, role, link, days) => [
      `${inviter} vous invite à rejoindre l'équipe ${team} sur {product} en tant que ${role === "admin" ? "Administrateur" : "Membre"}.`,
      "",
      "Ouvrez ce lien pour accepter (connectez-vous, ou créez un compte, avec cette adresse e-mail) :",
      link,
      "",
      `Le lien ne fonctionne qu'une fois, pendant ${days} jours. Si vous ne connaissez pas cette équipe, ignorez ce message.`,
    ],
    webhookOffSubject: `Un webhook {product} a été désactivé`,
    webhookOffBody: (url) => [
      "Votre point de terminaison de webhook a échoué à chaque livraison pendant une journée : il a donc été désactivé.",
      url,
      "",
      "Les événements survenus pendant qu’il est désactivé ne sont pas conservés pour lui. Réparez-le, puis réactivez-le sur la page Développeurs ; envoyez un événement de test pour le vérifier.",
    ],
  },
};

/** The studio's name (/admin → Studio) in place of {product}; the mail is sent from that name too. */
const named = (product: string, message: { to: string; subject: string; lines: string[] }): MailMessage => ({
  to: message.to,
  // Replacer functions: a replacement string would read "$&", "$'"… in the studio's name as patterns.
  subject: message.subject.replaceAll("{product}", () => product),
  text: message.lines.join("\n").replaceAll("{product}", () => product),
  fromName: product,
});

export function confirmSignUpMail(language: Language, to: string, fullName: string, link: string, product: string): MailMessage {
  const texts = TEXTS[language];
  return named(product, { to, subject: texts.confirmSubject, lines: texts.confirmBody(fullName, link) });
}

export function resetPasswordMail(language: Language, to: string, link: string, product: string): MailMessage {
  const texts = TEXTS[language];
  return named(product, { to, subject: texts.resetSubject, lines: texts.resetBody(link) });
}

/** To the owner, when wrong second-factor codes lock their sign-in: someone knows the password. */
export function twoFactorLockedMail(language: Language, to: string, product: string): MailMessage {
  const texts = TEXTS[language];
  return named(product, { to, subject: texts.lockedSubject, lines: texts.lockedBody });
}

/** To an address invited into a team: who invites, to which team and role, and the single-use link. */
export function teamInvitationMail(
  language: Language,
  to: string,
  invitation: { inviter: string; team: string; role: "admin" | "member"; link: string; days: number },
  product: string,
): MailMessage {
  const texts = TEXTS[language];
  // Names typed by users: one line each (a line break would start a new header or paragraph).
  const team = invitation.team.replace(/\s+/g, " ");
  const inviter = invitation.inviter.replace(/\s+/g, " ");
  return named(product, {
    to,
    subject: texts.inviteSubject(team),
    lines: texts.inviteBody(inviter, team, invitation.role, invitation.link, invitation.days),
  });
}

/** To the maker of a webhook endpoint turned off because it failed every delivery for a day (decision 095). */
export function webhookDisabledMail(language: Language, to: string, url: string, product: string): MailMessage {
  const texts = TEXTS[language];
  return named(product, { to, subject: texts.webhookOffSubject, lines: texts.webhookOffBody(url.replace(/\s+/g, "")) });
}
