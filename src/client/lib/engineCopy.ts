/**
 * The one rule for what the interface claims about its render engine. A text that says "AI", or
 * promises what only an AI engine does (photorealism, "AI Magic", a new design in 30 seconds), is
 * shown only when the configured engine is AI. With the Preview engine (it grades colours and light;
 * it is not AI) each such text gives way to its honest alternative, listed here next to it. The
 * spec's own words stay under their keys, for an AI engine. useEngine() applies the rule in a
 * component; this file is pure so that the rule can be tested without one.
 */

/** Each text that may only be shown with an AI engine, and what the Preview engine shows instead. */
export const PREVIEW_ALTERNATIVES = {
  "demo.description": "demo.preview.description",
  "demo.steps.magic": "demo.preview.magic",
  "demo.steps.magicBody": "demo.preview.magicBody",
  "demo.steps.resultsBody": "demo.preview.resultsBody",
  "demo.badgeAfter": "demo.preview.badgeAfter",
  "demo.reasons.fast": "demo.preview.fast",
  "demo.reasons.fastBody": "demo.preview.fastBody",
  "demo.reasons.quality": "demo.preview.quality",
  "demo.reasons.qualityBody": "demo.preview.qualityBody",
  "home.audience.agentsBody": "home.audiencePreview.agentsBody",
  "help.faq.gettingStarted.whatIs.a": "help.faqPreview.whatIs",
  "help.faq.upload.floorPlans.a": "help.faqPreview.floorPlans",
  "help.faq.rendering.howLong.a": "help.faqPreview.howLong",
  "help.faq.rendering.engine.a": "help.faqPreview.engine",
  "onboarding.welcome.body": "onboarding.preview.welcomeBody",
  "onboarding.howItWorks.step3": "onboarding.preview.step3",
  "onboarding.howItWorks.step4": "onboarding.preview.step4",
  "onboarding.results.afterDetail": "onboarding.preview.afterDetail",
} as const;

/** A text whose words depend on whether the engine is AI. */
export type EngineClaimKey = keyof typeof PREVIEW_ALTERNATIVES;

export function isEngineClaimKey(key: string): key is EngineClaimKey {
  return Object.hasOwn(PREVIEW_ALTERNATIVES, key);
}

/**
 * The key to show for `key`: itself with an AI engine, its honest alternative otherwise. An engine
 * not known yet counts as not AI: nothing claims AI before the server has said so.
 */
export function engineTextKey(key: string, isAi: boolean | undefined): string {
  return isAi !== true && isEngineClaimKey(key) ? PREVIEW_ALTERNATIVES[key] : key;
}
