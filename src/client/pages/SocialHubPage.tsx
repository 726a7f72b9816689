/**
 * /social-hub (signed in; decision 105): the user's public side. Their portfolio page (/p/<handle>:
 * address, name, introduction, links, contact, the studio it presents, public or not), the designers
 * and studios they follow with what those published lately, and the share links of what they published.
 */
import { Code, Copy, ExternalLink, Link2, Plus, Share2, Trash2, UserMinus, Users } from "lucide-react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link } from "wouter";
import { embedSnippet, SHARE_ROUTES } from "../../shared/community";
import { PORTFOLIO, portfolioInputSchema, portfolioPath, type MyPortfolio, type PortfolioSettings } from "../../shared/portfolio";
import { PublicationCard, useStyleLabel } from "../components/community/PublicationCard";
import { inputClass } from "../components/auth/fields";
import { ErrorText, PageShell } from "../components/render/PageShell";
import { Spinner } from "../components/Spinner";
import { buttonClass, cardClass, labelClass, linkClass, selectClass } from "../components/ui/buttons";
import { ConfirmDeletion } from "../components/ui/Dialog";
import { Switch } from "../components/ui/Switch";
import { copyText } from "../lib/format";
import { friendlyError } from "../lib/friendlyError";
import { fieldErrorsOf, serverFieldErrors, type FieldErrors } from "../lib/formErrors";
import { translateMessage } from "../lib/validationMessages";
import { trpc } from "../trpc";

const absolute = (path: string) => `${window.location.origin}${path}`;

function Section({
  id,
  icon,
  title,
  intro,
  children,
}: {
  id: string;
  icon: ReactNode;
  title: string;
  intro?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={`${cardClass} space-y-4 p-5`}>
      <div>
        <h2 id={id} className="flex items-center gap-2 text-lg font-semibold">
          {icon}
          {title}
        </h2>
        {intro ? <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{intro}</p> : null}
      </div>
      {children}
    </section>
  );
}

/** Copies a text, saying so in a toast (or that it could not). */
function CopyButton({ text, label, done, icon }: { text: string; label: string; done: string; icon?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={buttonClass.secondary}
      onClick={() => {
        void copyText(text).then((copied) => (copied ? toast.success(done) : toast.error(t("publish.copyFailed"))));
      }}
    >
      {icon ?? <Copy className="size-4" aria-hidden="true" />}
      {label}
    </button>
  );
}

const EMPTY_LINK = { label: "", url: "" };

/** A labelled field with its hint and its error under it (neither part of the field's name). */
function Field({ id, label, hint, error, children }: { id: string; label: string; hint?: string; error?: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      <ErrorText id={`${id}-error`} message={error} />
    </div>
  );
}

function formOf(mine: MyPortfolio): PortfolioSettings {
  return (
    mine.settings ?? {
      handle: mine.suggestedHandle,
      displayName: mine.suggestedName,
      headline: "",
      links: [],
      contactEmail: "",
      contactPhone: "",
      brandTeamId: null,
      visible: true,
    }
  );
}

function PortfolioForm({ mine, onSaved }: { mine: MyPortfolio; onSaved(): Promise<unknown> }) {
  const { t } = useTranslation();
  const save = trpc.community.savePortfolio.useMutation();
  const remove = trpc.community.removePortfolio.useMutation();
  const [form, setForm] = useState<PortfolioSettings>(() => formOf(mine));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string>();
  const [removing, setRemoving] = useState<MyPortfolio | null>(null);
  const saved = mine.settings;
  const translated = (fieldErrors: FieldErrors): FieldErrors =>
    Object.fromEntries(Object.entries(fieldErrors).map(([field, message]) => [field, message ? translateMessage(message, t) : message]));

  const submit = async () => {
    const parsed = portfolioInputSchema.safeParse(form);
    setFormError(undefined);
    if (!parsed.success) return setErrors(translated(fieldErrorsOf(parsed.error)));
    setErrors({});
    try {
      setForm(await save.mutateAsync(parsed.data));
      toast.success(t("socialHub.portfolio.saved"));
      await onSaved();
    } catch (error) {
      const fields = serverFieldErrors(error);
      if (fields) setErrors(translated(fields));
      else setFormError(friendlyError(error, t));
    }
  };

  const field = (name: "handle" | "displayName" | "contactEmail" | "contactPhone") => ({
    id: `portfolio-${name}`,
    className: inputClass,
    value: form[name],
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby":
      [name === "handle" ? "portfolio-handle-hint" : "", errors[name] ? `portfolio-${name}-error` : ""].join(" ").trim() || undefined,
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  });
  const setLink = (index: number, change: Partial<{ label: string; url: string }>) =>
    setForm({ ...form, links: form.links.map((link, i) => (i === index ? { ...link, ...change } : link)) });

  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {saved ? (
        <div
          className="flex flex-wrap items-center gap-2 rounded-lg bg-slate-50 p-3 text-sm dark:bg-slate-800/60"
          data-testid="portfolio-address"
        >
          <Link2 className="size-4 shrink-0" aria-hidden="true" />
          <a href={portfolioPath(saved.handle)} className={`${linkClass} [overflow-wrap:anywhere]`} target="_blank" rel="noopener">
            {absolute(portfolioPath(saved.handle))}
          </a>
          {saved.visible ? null : <span className="text-amber-700 dark:text-amber-300">{t("socialHub.portfolio.hidden")}</span>}
          <span className="ms-auto flex flex-wrap gap-2">
            <CopyButton
              text={absolute(portfolioPath(saved.handle))}
              label={t("socialHub.portfolio.copyLink")}
              done={t("socialHub.portfolio.copied")}
            />
          </span>
        </div>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t("socialHub.portfolio.none")}</p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id="portfolio-handle"
          label={t("socialHub.portfolio.address")}
          hint={t("socialHub.portfolio.addressHint")}
          error={errors.handle}
        >
          <span className="flex items-center gap-1">
            <span className="shrink-0 text-sm text-slate-500 dark:text-slate-400" aria-hidden="true">
              /p/
            </span>
            <input {...field("handle")} maxLength={PORTFOLIO.handleMax} autoCapitalize="none" spellCheck={false} />
          </span>
        </Field>
        <Field id="portfolio-displayName" label={t("socialHub.portfolio.displayName")} error={errors.displayName}>
          <input {...field("displayName")} maxLength={PORTFOLIO.displayNameMax} autoComplete="name" />
        </Field>
      </div>
      <Field id="portfolio-headline" label={t("socialHub.portfolio.headline")} error={errors.headline}>
        <textarea
          id="portfolio-headline"
          className={inputClass}
          rows={3}
          maxLength={PORTFOLIO.headlineMax}
          value={form.headline}
          onChange={(event) => setForm({ ...form, headline: event.target.value })}
        />
      </Field>
      {mine.teams.length > 0 ? (
        <Field
          id="portfolio-brand"
          label={t("socialHub.portfolio.presentAs")}
          hint={t("socialHub.portfolio.presentHint")}
          error={errors.brandTeamId}
        >
          <select
            id="portfolio-brand"
            className={selectClass}
            value={form.brandTeamId ?? ""}
            aria-describedby="portfolio-brand-hint"
            onChange={(event) => setForm({ ...form, brandTeamId: event.target.value || null })}
          >
            <option value="">{t("socialHub.portfolio.presentSelf")}</option>
            {mine.teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
        </Field>
      ) : null}
      <fieldset className="space-y-2">
        <legend className={labelClass}>{t("socialHub.portfolio.links")}</legend>
        {form.links.map((link, index) => (
          <div key={index} className="flex flex-wrap items-end gap-2 sm:flex-nowrap" data-testid="portfolio-link">
            <label className="block w-full sm:w-40">
              <span className="sr-only">{t("socialHub.portfolio.linkLabel")}</span>
              <input
                className={inputClass}
                placeholder={t("socialHub.portfolio.linkLabel")}
                maxLength={PORTFOLIO.linkLabelMax}
                value={link.label}
                onChange={(event) => setLink(index, { label: event.target.value })}
              />
            </label>
            <label className="block min-w-0 flex-1">
              <span className="sr-only">{t("socialHub.portfolio.linkUrl")}</span>
              <input
                className={inputClass}
                type="url"
                inputMode="url"
                placeholder="https://"
                maxLength={PORTFOLIO.linkUrlMax}
                value={link.url}
                onChange={(event) => setLink(index, { url: event.target.value })}
              />
            </label>
            <button
              type="button"
              className={buttonClass.ghost}
              aria-label={t("socialHub.portfolio.removeLink", { number: index + 1 })}
              onClick={() => setForm({ ...form, links: form.links.filter((_, i) => i !== index) })}
            >
              <Trash2 className="size-4" aria-hidden="true" />
            </button>
          </div>
        ))}
        {form.links.length < PORTFOLIO.linksMax ? (
          <button type="button" className={buttonClass.secondary} onClick={() => setForm({ ...form, links: [...form.links, EMPTY_LINK] })}>
            <Plus className="size-4" aria-hidden="true" />
            {t("socialHub.portfolio.addLink")}
          </button>
        ) : null}
        <ErrorText message={errors.links} />
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="portfolio-contactEmail" label={t("socialHub.portfolio.contactEmail")} error={errors.contactEmail}>
          <input {...field("contactEmail")} type="email" maxLength={PORTFOLIO.emailMax} autoComplete="email" />
        </Field>
        <Field id="portfolio-contactPhone" label={t("socialHub.portfolio.contactPhone")} error={errors.contactPhone}>
          <input {...field("contactPhone")} type="tel" maxLength={PORTFOLIO.phoneMax} autoComplete="tel" />
        </Field>
      </div>
      <div className="flex items-center gap-3">
        <Switch checked={form.visible} onChange={(visible) => setForm({ ...form, visible })} labelledBy="portfolio-visible" />
        <span id="portfolio-visible" className="text-sm">
          {t("socialHub.portfolio.visible")}
        </span>
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">{t("socialHub.portfolio.onlyNamed")}</p>
      <ErrorText message={formError} />
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonClass.primary} disabled={save.isPending}>
          {t("socialHub.portfolio.save")}
        </button>
        {saved ? (
          <>
            <a href={portfolioPath(saved.handle)} className={buttonClass.secondary} target="_blank" rel="noopener">
              <ExternalLink className="size-4" aria-hidden="true" />
              {t("socialHub.portfolio.open")}
            </a>
            <button type="button" className={buttonClass.dangerOutline} onClick={() => setRemoving(mine)}>
              <Trash2 className="size-4" aria-hidden="true" />
              {t("socialHub.portfolio.remove")}
            </button>
          </>
        ) : null}
      </div>
      <ConfirmDeletion
        item={removing}
        onClose={() => setRemoving(null)}
        title={() => t("socialHub.portfolio.removeTitle")}
        description={() => t("socialHub.portfolio.removeBody")}
        confirmLabel={t("socialHub.portfolio.remove")}
        remove={async () => {
          await remove.mutateAsync();
          setForm(formOf({ ...mine, settings: null }));
          await onSaved();
        }}
        deleted={() => t("socialHub.portfolio.removed")}
      />
    </form>
  );
}

function Following() {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const following = trpc.community.following.useQuery();
  const feed = trpc.community.feed.useQuery({ view: "following", limit: 6 });
  const follow = trpc.community.follow.useMutation();
  const unfollow = async (author: { kind: "user" | "team"; id: string; name: string }) => {
    try {
      await follow.mutateAsync({ kind: author.kind, targetId: author.id, on: false });
      toast.success(t("socialHub.following.unfollowed", { name: author.name }));
      await utils.community.invalidate();
    } catch (error) {
      toast.error(friendlyError(error, t));
    }
  };
  if (following.isLoading) return <Spinner label={t("common.loading")} />;
  if (following.error) return <ErrorText message={friendlyError(following.error, t)} />;
  const authors = following.data ?? [];
  if (authors.length === 0) {
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {t("socialHub.following.empty")}{" "}
        <Link href="/community" className={linkClass}>
          {t("pages.community.title")}
        </Link>
      </p>
    );
  }
  const items = feed.data?.items ?? [];
  return (
    <div className="space-y-5">
      <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="following-list">
        {authors.map((author) => (
          <li key={`${author.kind}:${author.id}`} className="flex flex-wrap items-center gap-2 py-2">
            <span className="min-w-0 flex-1 font-medium [overflow-wrap:anywhere]">
              {author.name || t("community.unnamedDesigner")}
              <span className="ms-2 text-xs font-normal text-slate-500 dark:text-slate-400">
                {author.kind === "team" ? t("portfolioPage.studio") : null}
              </span>
            </span>
            {author.portfolio ? (
              <Link href={portfolioPath(author.portfolio)} className={buttonClass.ghost}>
                <ExternalLink className="size-4" aria-hidden="true" />
                {t("socialHub.following.portfolio", { name: author.name })}
              </Link>
            ) : null}
            <button type="button" className={buttonClass.ghost} onClick={() => void unfollow(author)} disabled={follow.isPending}>
              <UserMinus className="size-4" aria-hidden="true" />
              {t("socialHub.following.unfollow")}
            </button>
          </li>
        ))}
      </ul>
      <div className="space-y-3">
        <h3 className="font-medium">{t("socialHub.following.feedTitle")}</h3>
        {feed.data && items.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{t("socialHub.following.feedEmpty")}</p>
        ) : null}
        {items.length > 0 ? (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="following-feed">
            {items.map((item) => (
              <PublicationCard key={item.id} publication={item} />
            ))}
          </ul>
        ) : null}
        <Link href="/community" className={linkClass}>
          {t("socialHub.following.seeAll")}
        </Link>
      </div>
    </div>
  );
}

function ShareLinks() {
  const { t } = useTranslation();
  const mine = trpc.community.mine.useQuery();
  const styleLabel = useStyleLabel();
  if (mine.isLoading) return <Spinner label={t("common.loading")} />;
  if (mine.error) return <ErrorText message={friendlyError(mine.error, t)} />;
  const items = mine.data ?? [];
  if (items.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">{t("socialHub.shares.empty")}</p>;
  return (
    <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="share-links">
      {items.map((item) => (
        <li key={item.id} className="flex flex-wrap items-center gap-3 py-3" data-testid="share-link">
          {item.hidden ? null : <img src={item.after} alt="" className="size-14 shrink-0 rounded-md object-cover" loading="lazy" />}
          <div className="min-w-0 flex-1">
            <p className="font-medium [overflow-wrap:anywhere]">{item.title || styleLabel(item)}</p>
            <p className="text-xs text-slate-500 dark:text-slate-400">
              {styleLabel(item)} · {t(`roomTypes.${item.roomType}`)}
            </p>
            {item.hidden ? <p className="text-xs text-amber-700 dark:text-amber-300">{t("socialHub.shares.hidden")}</p> : null}
          </div>
          {item.hidden ? null : <ShareActions id={item.id} title={item.title} />}
        </li>
      ))}
    </ul>
  );
}

/** A publication's share page, to open and to copy, and the slider to embed on one's own website. */
function ShareActions({ id, title }: { id: string; title: string }) {
  const { t } = useTranslation();
  return (
    <span className="flex flex-wrap gap-2">
      <a href={SHARE_ROUTES.page(id)} className={buttonClass.ghost} target="_blank" rel="noopener">
        <ExternalLink className="size-4" aria-hidden="true" />
        {t("socialHub.shares.open")}
      </a>
      <CopyButton text={absolute(SHARE_ROUTES.page(id))} label={t("publish.copyLink")} done={t("publish.linkCopied")} />
      <CopyButton
        text={embedSnippet(window.location.origin, id, title || t("share.untitled"))}
        label={t("publish.copyEmbed")}
        done={t("publish.embedCopied")}
        icon={<Code className="size-4" aria-hidden="true" />}
      />
    </span>
  );
}

export default function SocialHubPage() {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const mine = trpc.community.myPortfolio.useQuery();
  return (
    <PageShell wide title={t("pages.socialHub.title")} intro={t("socialHub.intro")}>
      <Section
        id="portfolio"
        icon={<Link2 className="size-5" aria-hidden="true" />}
        title={t("socialHub.portfolio.title")}
        intro={t("socialHub.portfolio.intro")}
      >
        {mine.isLoading ? <Spinner label={t("common.loading")} /> : null}
        {mine.error ? <ErrorText message={friendlyError(mine.error, t)} /> : null}
        {mine.data ? (
          <PortfolioForm
            key={mine.data.settings ? "saved" : "new"}
            mine={mine.data}
            onSaved={() => Promise.all([utils.community.myPortfolio.invalidate(), utils.community.invalidate()])}
          />
        ) : null}
      </Section>
      <Section id="following" icon={<Users className="size-5" aria-hidden="true" />} title={t("socialHub.following.title")}>
        <Following />
      </Section>
      <Section
        id="shares"
        icon={<Share2 className="size-5" aria-hidden="true" />}
        title={t("socialHub.shares.title")}
        intro={t("socialHub.shares.intro")}
      >
        <ShareLinks />
      </Section>
    </PageShell>
  );
}
