/**
 * The last call to action: Start Free Trial (a visitor) or Go to Dashboard (signed in), and
 * Schedule Demo, which writes to the studio's support mailbox: a self-hosted studio has no sales
 * calendar, and its people answer that mailbox.
 */
import { CalendarClock, LayoutDashboard, Sparkles } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";

import { useSession } from "../../hooks/useSession";
import { SIGN_UP_HREF } from "../../lib/authLinks";
import { mailtoHref, useSupportEmail } from "./support";
import { currentStudio } from "../../lib/studio";

const onBrand =
  "inline-flex items-center justify-center gap-2 rounded-md px-5 py-3 text-base font-semibold transition-colors [&>svg]:shrink-0";

/**
 * The note's text with the address set apart: the text marks it as <email>…</email> (react-i18next's
 * Trans would read that, but brings an HTML parser into the first load for this one line).
 */
function EmailNote({ text, email }: { text: string; email: string }) {
  const match = /^(.*)<email>(.*)<\/email>(.*)$/s.exec(text);
  if (!match) return <>{text}</>;
  return (
    <>
      {match[1]}
      <span className="whitespace-nowrap font-medium text-white">{match[2] || email}</span>
      {match[3]}
    </>
  );
}

export function ClosingCta() {
  const { t } = useTranslation();
  const { user } = useSession();
  const email = useSupportEmail();
  const subject = t("home.cta.scheduleDemoSubject", { product: currentStudio().name });
  return (
    <section className="px-4 pb-16 sm:px-6" aria-labelledby="cta-title">
      <div className="mx-auto max-w-6xl rounded-3xl bg-gradient-to-br from-brand-600 to-brand-700 px-6 py-12 text-center text-white shadow-lg sm:px-12">
        <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-balance">
          {t("home.cta.title")}
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-brand-50">
          {user ? t("home.cta.bodyUser") : t("home.cta.bodyVisitor", { credits: currentStudio().signUpCredits })}
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {user ? (
            <Link href="/dashboard" className={`${onBrand} bg-white text-brand-700 shadow hover:bg-brand-50`}>
              <LayoutDashboard className="size-4" aria-hidden="true" />
              {t("home.hero.goToDashboard")}
            </Link>
          ) : (
            <Link href={SIGN_UP_HREF} className={`${onBrand} bg-white text-brand-700 shadow hover:bg-brand-50`}>
              <Sparkles className="size-4" aria-hidden="true" />
              {t("home.cta.startFreeTrial")}
            </Link>
          )}
          <a href={mailtoHref(email, subject)} className={`${onBrand} border border-white/60 text-white hover:bg-white/10`}>
            <CalendarClock className="size-4" aria-hidden="true" />
            {t("home.cta.scheduleDemo")}
          </a>
        </div>
        <p className="mt-4 text-sm text-brand-100">
          <EmailNote text={t("home.cta.scheduleDemoNote", { email })} email={email} />
        </p>
      </div>
    </section>
  );
}
