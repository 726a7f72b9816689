/**
 * What the build's pre-rendered landing page holds in place of the studio's name and sign-up
 * credits; the server fills them in from /admin → Studio when it sends the page (http/studio-pages).
 * Plain letters and digits: they survive HTML escaping and i18next's interpolation unchanged.
 */
export const PRERENDER_PLACEHOLDERS = {
  name: "StudioNamePlaceholderQx7",
  supportEmail: "support-placeholder-qx7@example.invalid",
  signUpCredits: "86420975",
} as const;
