/**
 * Publishing a render in the community (decision 102), in the render's share panel: a dialog with a
 * title, before and after or after only, and whether the name is shown (off by default); once
 * published, what it is published as, and unpublishing. The server checks every right again.
 */
import { Code2, Globe, Link2 } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link } from "wouter";
import { COMMUNITY, embedSnippet, PUBLICATION_LAYOUTS, SHARE_ROUTES, type PublicationLayout } from "../../../shared/community";
import { absoluteUrl, copyText } from "../../lib/format";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { inputClass } from "../auth/fields";
import { buttonClass, labelClass, linkClass } from "../ui/buttons";
import { FormDialog } from "../ui/Dialog";
import { Switch } from "../ui/Switch";

export function PublishPanel({ jobId }: { jobId: string }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const state = trpc.community.ofRender.useQuery({ jobId });
  const publish = trpc.community.publish.useMutation();
  const unpublish = trpc.community.unpublish.useMutation();
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState("");
  const [layout, setLayout] = useState<PublicationLayout>("before-after");
  const [showName, setShowName] = useState(false);
  const [formError, setFormError] = useState<string>();

  useEffect(() => {
    if (!open) return;
    setTitle("");
    setLayout("before-after");
    setShowName(false);
    setFormError(undefined);
  }, [open]);

  const refresh = () => Promise.all([utils.community.ofRender.invalidate({ jobId }), utils.community.invalidate()]);

  const submit = async () => {
    if (!title.trim()) return setFormError(t("serverMessages.publicationTitleRequired"));
    try {
      await publish.mutateAsync({ jobId, title: title.trim(), layout, showName });
      setOpen(false);
      toast.success(t("publish.publishedToast"));
      await refresh();
    } catch (caught) {
      setFormError(friendlyError(caught, t));
    }
  };

  const remove = async (id: string) => {
    try {
      await unpublish.mutateAsync({ id });
      toast.success(t("publish.unpublishedToast"));
      await refresh();
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  const copy = async (text: string, done: string) => {
    if (await copyText(text)) toast.success(done);
    else toast.error(t("publish.copyFailed"));
  };

  const data = state.data;
  if (!data || !data.publishable) return null;
  const publication = data.publication;
  const id = `publish-${jobId}`;
  return (
    <div className="space-y-2 rounded-lg bg-slate-50 px-3 py-2.5 dark:bg-slate-800/60" data-testid="publish-panel">
      {publication ? (
        <>
          <p className="inline-flex items-center gap-2 text-sm font-medium [overflow-wrap:anywhere]">
            <Globe className="size-4 shrink-0" aria-hidden="true" />
            {publication.title ? t("publish.published", { title: publication.title }) : t("publish.publishedUntitled")}
          </p>
          {publication.hidden ? (
            <p className="text-xs text-amber-800 dark:text-amber-200" role="status">
              {t("publish.hidden")}
            </p>
          ) : (
            <>
              <Link href="/community" className={`${linkClass} block text-sm`}>
                {t("publish.see")}
              </Link>
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className={buttonClass.secondary}
                  onClick={() => void copy(absoluteUrl(SHARE_ROUTES.page(publication.id)), t("publish.linkCopied"))}
                >
                  <Link2 className="size-4" aria-hidden="true" />
                  {t("publish.copyLink")}
                </button>
                <button
                  type="button"
                  className={buttonClass.secondary}
                  onClick={() =>
                    void copy(
                      embedSnippet(window.location.origin, publication.id, publication.title || t("share.untitled")),
                      t("publish.embedCopied"),
                    )
                  }
                >
                  <Code2 className="size-4" aria-hidden="true" />
                  {t("publish.copyEmbed")}
                </button>
              </div>
            </>
          )}
          {data.mayPublish ? (
            <button
              type="button"
              className="text-sm font-medium text-red-600 hover:underline dark:text-red-400"
              disabled={unpublish.isPending}
              onClick={() => void remove(publication.id)}
            >
              {t("publish.unpublish")}
            </button>
          ) : null}
        </>
      ) : data.blocked ? (
        <p className="text-sm text-amber-800 dark:text-amber-200" role="status">
          {t("serverMessages.publishingBlocked")}
        </p>
      ) : !data.mayPublish ? (
        <p className="text-xs text-slate-500 dark:text-slate-400">{t("publish.teamOnly")}</p>
      ) : (
        <button type="button" className={buttonClass.secondary} onClick={() => setOpen(true)}>
          <Globe className="size-4" aria-hidden="true" />
          {t("publish.open")}
        </button>
      )}
      <FormDialog
        open={open}
        onOpenChange={setOpen}
        title={t("publish.title")}
        description={t("publish.description")}
        submitLabel={t("publish.submit")}
        busy={publish.isPending}
        onSubmit={() => void submit()}
      >
        <div>
          <label htmlFor={`${id}-title`} className={labelClass}>
            {t("publish.titleLabel")}
          </label>
          <input
            id={`${id}-title`}
            className={inputClass}
            value={title}
            maxLength={COMMUNITY.titleMax}
            onChange={(event) => setTitle(event.target.value)}
            aria-describedby={`${id}-title-hint`}
            autoComplete="off"
          />
          <p id={`${id}-title-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
            {t("publish.titleHint", { max: COMMUNITY.titleMax })}
          </p>
        </div>
        <fieldset>
          <legend className={labelClass}>{t("publish.layout")}</legend>
          <div className="flex flex-col gap-2 sm:flex-row sm:gap-4">
            {PUBLICATION_LAYOUTS.map((value) => (
              <label key={value} className="inline-flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name={`${id}-layout`}
                  value={value}
                  checked={layout === value}
                  onChange={() => setLayout(value)}
                  className="size-4 accent-brand-600"
                />
                {t(`publish.layouts.${value}`)}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex items-center justify-between gap-3">
          <span id={`${id}-name`} className="text-sm font-medium">
            {data.teamRender ? t("publish.showStudioName") : t("publish.showName")}
          </span>
          <Switch checked={showName} onChange={setShowName} labelledBy={`${id}-name`} describedBy={`${id}-name-hint`} />
        </div>
        <p id={`${id}-name-hint`} className="-mt-2 text-xs text-slate-500 dark:text-slate-400">
          {t("publish.showNameHint")}
        </p>
        {formError ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {formError}
          </p>
        ) : null}
      </FormDialog>
    </div>
  );
}
