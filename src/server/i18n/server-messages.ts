/**
 * The server's messages in the user's language (decision 096), for answers no browser translates (the
 * public API's errors). The translations have one home, the client's texts (key serverMessages.<name>
 * in src/client/i18n and its areas); the server bundles the same JSON files rather than keep a copy
 * that could drift. Every file that holds serverMessages is listed below: tests/unit/server-messages.test.ts
 * fails when an area with serverMessages is missing here.
 */
import { DEFAULT_LANGUAGE, type Language } from "../../shared/constants";
import { englishMessage, readMessage, type KeyedMessage } from "../../shared/messages";
import main_en from "../../client/i18n/en.json";
import main_es from "../../client/i18n/es.json";
import main_fr from "../../client/i18n/fr.json";
import clients_en from "../../client/i18n/areas/clients/en.json";
import clients_es from "../../client/i18n/areas/clients/es.json";
import clients_fr from "../../client/i18n/areas/clients/fr.json";
import developers_en from "../../client/i18n/areas/developers/en.json";
import developers_es from "../../client/i18n/areas/developers/es.json";
import developers_fr from "../../client/i18n/areas/developers/fr.json";
import listing_en from "../../client/i18n/areas/listing/en.json";
import listing_es from "../../client/i18n/areas/listing/es.json";
import listing_fr from "../../client/i18n/areas/listing/fr.json";
import measure_en from "../../client/i18n/areas/measure/en.json";
import measure_es from "../../client/i18n/areas/measure/es.json";
import measure_fr from "../../client/i18n/areas/measure/fr.json";
import render_sets_en from "../../client/i18n/areas/render-sets/en.json";
import render_sets_es from "../../client/i18n/areas/render-sets/es.json";
import render_sets_fr from "../../client/i18n/areas/render-sets/fr.json";
import review_en from "../../client/i18n/areas/review/en.json";
import review_es from "../../client/i18n/areas/review/es.json";
import review_fr from "../../client/i18n/areas/review/fr.json";
import studio_admin_en from "../../client/i18n/areas/studio-admin/en.json";
import studio_admin_es from "../../client/i18n/areas/studio-admin/es.json";
import studio_admin_fr from "../../client/i18n/areas/studio-admin/fr.json";
import team_members_en from "../../client/i18n/areas/team-members/en.json";
import team_members_es from "../../client/i18n/areas/team-members/es.json";
import team_members_fr from "../../client/i18n/areas/team-members/fr.json";
import teams_en from "../../client/i18n/areas/teams/en.json";
import teams_es from "../../client/i18n/areas/teams/es.json";
import teams_fr from "../../client/i18n/areas/teams/fr.json";
import api_en from "../../client/i18n/areas/api/en.json";
import api_es from "../../client/i18n/areas/api/es.json";
import api_fr from "../../client/i18n/areas/api/fr.json";
import webhooks_en from "../../client/i18n/areas/webhooks/en.json";
import webhooks_es from "../../client/i18n/areas/webhooks/es.json";
import webhooks_fr from "../../client/i18n/areas/webhooks/fr.json";
import custom_styles_en from "../../client/i18n/areas/custom-styles/en.json";
import custom_styles_es from "../../client/i18n/areas/custom-styles/es.json";
import custom_styles_fr from "../../client/i18n/areas/custom-styles/fr.json";
import community_en from "../../client/i18n/areas/community/en.json";
import community_es from "../../client/i18n/areas/community/es.json";
import community_fr from "../../client/i18n/areas/community/fr.json";
import social_hub_en from "../../client/i18n/areas/social-hub/en.json";
import social_hub_es from "../../client/i18n/areas/social-hub/es.json";
import social_hub_fr from "../../client/i18n/areas/social-hub/fr.json";
import style_packs_en from "../../client/i18n/areas/style-packs/en.json";
import style_packs_es from "../../client/i18n/areas/style-packs/es.json";
import style_packs_fr from "../../client/i18n/areas/style-packs/fr.json";
import marketplace_en from "../../client/i18n/areas/marketplace/en.json";
import marketplace_es from "../../client/i18n/areas/marketplace/es.json";
import marketplace_fr from "../../client/i18n/areas/marketplace/fr.json";

type Texts = { serverMessages?: Record<string, string> };

/** The files with serverMessages, per language (the main file first, then the areas). */
export const SERVER_MESSAGE_FILES: Record<Language, Record<string, Texts>> = {
  en: {
    "en.json": main_en,
    "areas/clients/en.json": clients_en,
    "areas/developers/en.json": developers_en,
    "areas/listing/en.json": listing_en,
    "areas/measure/en.json": measure_en,
    "areas/render-sets/en.json": render_sets_en,
    "areas/review/en.json": review_en,
    "areas/studio-admin/en.json": studio_admin_en,
    "areas/team-members/en.json": team_members_en,
    "areas/teams/en.json": teams_en,
    "areas/webhooks/en.json": webhooks_en,
    "areas/api/en.json": api_en,
    "areas/custom-styles/en.json": custom_styles_en,
    "areas/community/en.json": community_en,
    "areas/social-hub/en.json": social_hub_en,
    "areas/style-packs/en.json": style_packs_en,
    "areas/marketplace/en.json": marketplace_en,
  },
  es: {
    "es.json": main_es,
    "areas/clients/es.json": clients_es,
    "areas/developers/es.json": developers_es,
    "areas/listing/es.json": listing_es,
    "areas/measure/es.json": measure_es,
    "areas/render-sets/es.json": render_sets_es,
    "areas/review/es.json": review_es,
    "areas/studio-admin/es.json": studio_admin_es,
    "areas/team-members/es.json": team_members_es,
    "areas/teams/es.json": teams_es,
    "areas/webhooks/es.json": webhooks_es,
    "areas/api/es.json": api_es,
    "areas/custom-styles/es.json": custom_styles_es,
    "areas/community/es.json": community_es,
    "areas/social-hub/es.json": social_hub_es,
    "areas/style-packs/es.json": style_packs_es,
    "areas/marketplace/es.json": marketplace_es,
  },
  fr: {
    "fr.json": main_fr,
    "areas/clients/fr.json": clients_fr,
    "areas/developers/fr.json": developers_fr,
    "areas/listing/fr.json": listing_fr,
    "areas/measure/fr.json": measure_fr,
    "areas/render-sets/fr.json": render_sets_fr,
    "areas/review/fr.json": review_fr,
    "areas/studio-admin/fr.json": studio_admin_fr,
    "areas/team-members/fr.json": team_members_fr,
    "areas/teams/fr.json": teams_fr,
    "areas/webhooks/fr.json": webhooks_fr,
    "areas/api/fr.json": api_fr,
    "areas/custom-styles/fr.json": custom_styles_fr,
    "areas/community/fr.json": community_fr,
    "areas/social-hub/fr.json": social_hub_fr,
    "areas/style-packs/fr.json": style_packs_fr,
    "areas/marketplace/fr.json": marketplace_fr,
  },
};

let tables: Record<Language, Map<string, string>> | null = null;

/** Each language's serverMessages, name → text (made once). */
function table(language: Language): Map<string, string> {
  tables ??= Object.fromEntries(
    (Object.keys(SERVER_MESSAGE_FILES) as Language[]).map((lang) => [
      lang,
      new Map(Object.values(SERVER_MESSAGE_FILES[lang]).flatMap((texts) => Object.entries(texts.serverMessages ?? {}))),
    ]),
  ) as Record<Language, Map<string, string>>;
  return tables[language];
}

/** A known message in the language, its {{parameters}} filled in; English when the language has no text for it. */
export function localMessage(message: KeyedMessage, language: Language): string {
  const text = language === DEFAULT_LANGUAGE ? undefined : table(language).get(message.key);
  if (text === undefined) return englishMessage(message);
  return text.replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => String(message.params[name] ?? ""));
}

/**
 * What the server would send (a known English text, or a keyed message) in the language; any other
 * text (a schema's own words) as it is.
 */
export function localText(text: string, language: Language): string {
  const keyed = readMessage(text);
  return keyed ? localMessage(keyed, language) : text;
}
