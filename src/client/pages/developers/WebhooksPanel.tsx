/**
 * /developers → Webhooks (issue 31, decision 095): a space's endpoints (the space the page's key list
 * shows), each with its events, on/off, "Send test event", delete, and its delivery log with
 * "Redeliver". A new endpoint's signing secret comes from the vanilla tRPC client (never React Query's
 * cache) and is shown once, in a dialog, forgotten when it closes.
 */
import * as Dialog from "@radix-ui/react-dialog";
import { Check, Copy, Plus, RotateCw, Send, Webhook, X } from "lucide-react";
import { Fragment, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import {
  createWebhookInputSchema,
  WEBHOOK_EVENTS,
  WEBHOOKS,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookEvent,
} from "../../../shared/webhooks";
import { FieldError, TextField } from "../../components/auth/fields";
import { ErrorText } from "../../components/render/PageShell";
import { Spinner } from "../../components/Spinner";
import { ConfirmDeletion, ConfirmDialog, FormDialog } from "../../components/ui/Dialog";
import { buttonClass, cardClass, labelClass } from "../../components/ui/buttons";
import { copyText } from "../../lib/format";
import { fieldErrorsOf, serverFieldErrors, type FieldErrors } from "../../lib/formErrors";
import { friendlyError } from "../../lib/friendlyError";
import { translateMessage } from "../../lib/validationMessages";
import { trpc } from "../../trpc";

const eventKey = (event: string) => event.replace(".", "_");
const chip = "rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-200";

function CreateWebhookDialog({
  open,
  teamId,
  onClose,
  onCreated,
}: {
  open: boolean;
  teamId: string | null;
  onClose(): void;
  onCreated(created: { url: string; secret: string }): void;
}) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEvent[]>([]);
  const [creditsLowBelow, setCreditsLowBelow] = useState(String(WEBHOOKS.creditsLowDefault));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [wasOpen, setWasOpen] = useState(false);
  const eventsErrorId = useId();
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setUrl("");
      setEvents(["render.succeeded", "render.failed"]);
      setCreditsLowBelow(String(WEBHOOKS.creditsLowDefault));
      setErrors({});
      setFormError(undefined);
    }
  }
  const translated = (fieldErrors: FieldErrors): FieldErrors =>
    Object.fromEntries(Object.entries(fieldErrors).map(([field, message]) => [field, message ? translateMessage(message, t) : message]));

  const submit = async () => {
    const threshold = events.includes("credits.low") && creditsLowBelow.trim() !== "" ? Number(creditsLowBelow) : undefined;
    const parsed = createWebhookInputSchema.safeParse({ url, events, teamId, creditsLowBelow: threshold });
    if (!parsed.success) {
      setErrors(translated(fieldErrorsOf(parsed.error)));
      setFormError(undefined);
      return;
    }
    setErrors({});
    setFormError(undefined);
    setBusy(true);
    try {
      // The vanilla client: the answer (with the secret) never enters React Query's cache.
      const { endpoint, secret } = await utils.client.webhooks.create.mutate(parsed.data);
      onCreated({ url: endpoint.url, secret });
    } catch (error) {
      const fields = serverFieldErrors(error);
      if (fields) setErrors(translated(fields));
      else setFormError(friendlyError(error, t));
    } finally {
      setBusy(false);
    }
  };

  const toggle = (event: WebhookEvent, on: boolean) =>
    setEvents((chosen) => (on ? WEBHOOK_EVENTS.filter((e) => e === event || chosen.includes(e)) : chosen.filter((e) => e !== event)));

  return (
    <FormDialog
      open={open}
      onOpenChange={(isOpen) => (isOpen ? undefined : onClose())}
      title={t("webhooks.createTitle")}
      description={t("webhooks.createDescription")}
      submitLabel={t("webhooks.createSubmit")}
      busy={busy}
      onSubmit={() => void submit()}
    >
      <div className="-mx-1 max-h-[55vh] space-y-4 overflow-y-auto px-1" data-testid="create-webhook-form">
        <TextField
          label={t("webhooks.url")}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://example.com/hooks/roomcanvas"
          maxLength={WEBHOOKS.urlMax}
          hint={t("webhooks.urlHint")}
          value={url}
          error={errors.url}
          onChange={(event) => setUrl(event.target.value)}
        />
        <fieldset aria-describedby={errors.events ? eventsErrorId : undefined}>
          <legend className={labelClass}>{t("webhooks.eventsLabel")}</legend>
          <FieldError id={eventsErrorId} message={errors.events} />
          <div className="mt-1 space-y-2">
            {WEBHOOK_EVENTS.map((event) => (
              <Fragment key={event}>
                <label className="flex cursor-pointer items-start gap-3 rounded-md p-1.5 hover:bg-slate-50 dark:hover:bg-slate-800/60">
                  <input
                    type="checkbox"
                    className="mt-1 size-4 shrink-0 accent-brand-600"
                    checked={events.includes(event)}
                    onChange={(change) => toggle(event, change.target.checked)}
                  />
                  <span className="min-w-0 text-sm">
                    <code className="font-mono font-semibold">{event}</code>
                    <span className="block text-slate-600 dark:text-slate-400">{t(`webhooks.events.${eventKey(event)}`)}</span>
                  </span>
                </label>
                {event === "credits.low" && events.includes(event) ? (
                  <div className="pl-8">
                    <TextField
                      label={t("webhooks.creditsLowBelow")}
                      type="number"
                      inputMode="numeric"
                      min={1}
                      max={WEBHOOKS.creditsLowMax}
                      step={1}
                      className="max-w-sm"
                      hint={t("webhooks.creditsLowHint")}
                      value={creditsLowBelow}
                      error={errors.creditsLowBelow}
                      onChange={(event) => setCreditsLowBelow(event.target.value)}
                    />
                  </div>
                ) : null}
              </Fragment>
            ))}
          </div>
        </fieldset>
      </div>
      <ErrorText message={formError} />
    </FormDialog>
  );
}

/** The new endpoint's signing secret, shown once. */
function SecretDialog({ created, onClose }: { created: { url: string; secret: string } | null; onClose(): void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!created) return;
    if (await copyText(created.secret)) return setCopied(true);
    input.current?.focus();
    input.current?.select();
    toast.info(t("webhooks.copyFailed"));
  };
  return (
    <Dialog.Root
      open={created !== null}
      onOpenChange={(isOpen) => {
        if (isOpen) return;
        setCopied(false);
        onClose();
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50 backdrop-blur-sm" />
        <Dialog.Content
          className={
            "fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 rounded-xl border border-slate-200 " +
            "bg-white p-5 shadow-xl focus:outline-none sm:p-6 dark:border-slate-800 dark:bg-slate-900"
          }
          data-testid="webhook-secret-dialog"
        >
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-semibold [overflow-wrap:anywhere]">{t("webhooks.secretTitle")}</Dialog.Title>
            <Dialog.Close className={buttonClass.icon} aria-label={t("common.close")}>
              <X className="size-4" aria-hidden="true" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t("webhooks.secretBody")}</Dialog.Description>
          <p className="mt-4 break-all font-mono text-sm">{created?.url}</p>
          <label htmlFor="new-webhook-secret" className="sr-only">
            {t("webhooks.secretLabel")}
          </label>
          <div className="mt-2 flex flex-col gap-2 sm:flex-row">
            <input
              ref={input}
              id="new-webhook-secret"
              data-testid="webhook-secret"
              readOnly
              value={created?.secret ?? ""}
              onFocus={(event) => event.currentTarget.select()}
              spellCheck={false}
              autoComplete="off"
              className={
                "min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900 " +
                "focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
              }
            />
            <button type="button" className={buttonClass.primary} onClick={() => void copy()}>
              {copied ? <Check className="size-4" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
              {copied ? t("webhooks.copied") : t("webhooks.copy")}
            </button>
          </div>
          <div className="mt-6 flex justify-end">
            <Dialog.Close className={buttonClass.secondary}>{t("webhooks.done")}</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function StatusBadge({ status }: { status: WebhookDeliveryView["status"] }) {
  const { t } = useTranslation();
  const tone =
    status === "succeeded"
      ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-200"
      : status === "failed"
        ? "bg-red-100 text-red-800 dark:bg-red-950/60 dark:text-red-200"
        : "bg-amber-100 text-amber-900 dark:bg-amber-950/60 dark:text-amber-200";
  return <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${tone}`}>{t(`webhooks.status.${status}`)}</span>;
}

/** The endpoint's deliveries, newest first, read again every few seconds while shown. */
function DeliveryLog({ endpoint }: { endpoint: WebhookEndpointView }) {
  const { t, i18n } = useTranslation();
  const moment = new Intl.DateTimeFormat(i18n.language, { dateStyle: "short", timeStyle: "medium" });
  const log = trpc.webhooks.deliveries.useQuery({ id: endpoint.id, limit: 20 }, { refetchInterval: 2000 });
  const redeliver = trpc.webhooks.redeliver.useMutation();
  const utils = trpc.useUtils();
  if (log.isLoading) return <Spinner label={t("common.loading")} />;
  if (log.error) return <ErrorText message={friendlyError(log.error, t)} />;
  const deliveries = log.data ?? [];
  if (deliveries.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">{t("webhooks.logEmpty")}</p>;
  return (
    <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="webhook-log">
      {deliveries.map((delivery) => {
        const last = delivery.attempts.at(-1);
        return (
          <li key={delivery.id} className="flex flex-col gap-2 py-2 sm:flex-row sm:items-start" data-testid="webhook-delivery">
            <div className="min-w-0 flex-1 space-y-1 text-sm">
              <p className="flex flex-wrap items-center gap-2">
                <code className={chip}>{delivery.type}</code>
                <StatusBadge status={delivery.status} />
                <span className="text-slate-600 dark:text-slate-400">{moment.format(new Date(delivery.createdAt))}</span>
              </p>
              <p className="text-slate-600 dark:text-slate-400">
                {last
                  ? t("webhooks.lastAttempt", {
                      count: delivery.attempts.length,
                      answer:
                        last.status === null
                          ? last.error
                            ? translateMessage(last.error, t)
                            : t("webhooks.noAnswer")
                          : `HTTP ${last.status}`,
                      ms: last.durationMs,
                    })
                  : t("webhooks.notTried")}
                {delivery.nextAttemptAt !== null && delivery.attempts.length > 0
                  ? ` · ${t("webhooks.nextAttempt", { date: moment.format(new Date(delivery.nextAttemptAt)) })}`
                  : ""}
              </p>
              {last?.answer ? (
                <pre className="max-h-20 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 px-2 py-1 font-mono text-xs text-slate-700 dark:bg-slate-950 dark:text-slate-300">
                  {last.answer}
                </pre>
              ) : null}
            </div>
            <button
              type="button"
              className={`${buttonClass.ghost} shrink-0 self-start`}
              disabled={redeliver.isPending}
              onClick={() =>
                void redeliver
                  .mutateAsync({ id: endpoint.id, deliveryId: delivery.id })
                  .then(() => {
                    toast.success(t("webhooks.redelivered"));
                    return utils.webhooks.deliveries.invalidate({ id: endpoint.id });
                  })
                  .catch((error: unknown) => toast.error(friendlyError(error, t)))
              }
            >
              <RotateCw className="size-4" aria-hidden="true" />
              {t("webhooks.redeliver")}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

function EndpointCard({ endpoint, onDelete, onRotate }: { endpoint: WebhookEndpointView; onDelete(): void; onRotate(): void }) {
  const { t, i18n } = useTranslation();
  const utils = trpc.useUtils();
  const [showLog, setShowLog] = useState(false);
  const sendTest = trpc.webhooks.sendTest.useMutation();
  const setEnabled = trpc.webhooks.setEnabled.useMutation();
  const off = endpoint.disabledAt !== null;
  const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium" });
  const logId = useId();

  const test = async () => {
    try {
      await sendTest.mutateAsync({ id: endpoint.id });
      toast.success(t("webhooks.testSent"));
      setShowLog(true);
      await utils.webhooks.deliveries.invalidate({ id: endpoint.id });
    } catch (error) {
      toast.error(friendlyError(error, t));
    }
  };
  const toggle = async () => {
    try {
      await setEnabled.mutateAsync({ id: endpoint.id, enabled: off });
      await utils.webhooks.list.invalidate();
    } catch (error) {
      toast.error(friendlyError(error, t));
    }
  };

  return (
    <li className={`${cardClass} space-y-3 p-4`} data-testid="webhook" data-disabled={off || undefined}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1 space-y-1.5">
          <p className="flex flex-wrap items-center gap-2">
            <span className="break-all font-mono text-sm font-semibold" data-testid="webhook-url">
              {endpoint.url}
            </span>
            {off ? (
              <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800 dark:bg-red-950/60 dark:text-red-200">
                {t(endpoint.disabledReason === "failing" ? "webhooks.offFailing" : "webhooks.off")}
              </span>
            ) : null}
          </p>
          <p className="flex flex-wrap gap-1.5">
            <span className="sr-only">{t("webhooks.eventsLabel")}: </span>
            {endpoint.events.map((event) => (
              <code key={event} className={chip}>
                {event}
                {event === "credits.low" && endpoint.creditsLowBelow !== null ? (
                  <span className="font-sans"> · {t("webhooks.creditsLowShown", { count: endpoint.creditsLowBelow })}</span>
                ) : null}
              </code>
            ))}
          </p>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {t("webhooks.createdAt", { date: day.format(new Date(endpoint.createdAt)) })}
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <button type="button" className={buttonClass.secondary} onClick={() => void test()} disabled={sendTest.isPending}>
            <Send className="size-4" aria-hidden="true" />
            {t("webhooks.sendTest")}
          </button>
          <button type="button" className={buttonClass.ghost} onClick={() => void toggle()} disabled={setEnabled.isPending}>
            {off ? t("webhooks.turnOn") : t("webhooks.turnOff")}
          </button>
          <button type="button" className={buttonClass.ghost} onClick={onRotate}>
            {t("webhooks.rotate")}
          </button>
          <button type="button" className={`${buttonClass.dangerOutline} py-2`} onClick={onDelete}>
            {t("webhooks.delete")}
          </button>
        </div>
      </div>
      <div>
        <button
          type="button"
          className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-100"
          aria-expanded={showLog}
          aria-controls={logId}
          onClick={() => setShowLog((shown) => !shown)}
        >
          {showLog ? t("webhooks.hideLog") : t("webhooks.showLog")}
        </button>
        {showLog ? (
          <div id={logId} className="mt-2">
            <DeliveryLog endpoint={endpoint} />
          </div>
        ) : null}
      </div>
    </li>
  );
}

export function WebhooksPanel({ teamId, ready }: { teamId: string | null; ready: boolean }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const list = trpc.webhooks.list.useQuery({ teamId }, { enabled: ready, staleTime: 0 });
  const remove = trpc.webhooks.remove.useMutation();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpointView | null>(null);
  const [rotating, setRotating] = useState<WebhookEndpointView | null>(null);
  const [rotateBusy, setRotateBusy] = useState(false);

  const confirmRotate = async () => {
    if (!rotating) return;
    setRotateBusy(true);
    try {
      // The vanilla client: the answer (with the secret) never enters React Query's cache.
      const { endpoint, secret } = await utils.client.webhooks.rotateSecret.mutate({ id: rotating.id });
      setRotating(null);
      setCreated({ url: endpoint.url, secret });
    } catch (error) {
      toast.error(friendlyError(error, t));
    } finally {
      setRotateBusy(false);
    }
  };

  return (
    <section className="space-y-4" aria-labelledby="developers-webhooks" data-testid="webhooks-panel">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h2 id="developers-webhooks" className="flex items-center gap-2 text-xl font-semibold">
            <Webhook className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />
            {t("webhooks.title")}
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("webhooks.intro")}</p>
        </div>
        <button type="button" className={buttonClass.primary} onClick={() => setCreating(true)} disabled={!list.data}>
          <Plus className="size-4" aria-hidden="true" />
          {t("webhooks.create")}
        </button>
      </div>
      {list.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {list.error ? <ErrorText message={friendlyError(list.error, t)} /> : null}
      {list.data ? (
        list.data.length === 0 ? (
          <p className={`${cardClass} p-6 text-center text-slate-600 dark:text-slate-300`}>{t("webhooks.empty")}</p>
        ) : (
          <ul className="space-y-3" data-testid="webhooks">
            {list.data.map((endpoint) => (
              <EndpointCard
                key={endpoint.id}
                endpoint={endpoint}
                onDelete={() => setDeleting(endpoint)}
                onRotate={() => setRotating(endpoint)}
              />
            ))}
          </ul>
        )
      ) : null}
      <CreateWebhookDialog
        open={creating}
        teamId={teamId}
        onClose={() => setCreating(false)}
        onCreated={(endpoint) => {
          setCreating(false);
          setCreated(endpoint);
          toast.success(t("webhooks.created"));
          void utils.webhooks.list.invalidate();
        }}
      />
      <SecretDialog created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        open={rotating !== null}
        onOpenChange={(isOpen) => (isOpen ? undefined : setRotating(null))}
        title={t("webhooks.rotateTitle")}
        description={t("webhooks.rotateBody", { url: rotating?.url ?? "" })}
        confirmLabel={t("webhooks.rotateConfirm")}
        busy={rotateBusy}
        onConfirm={() => void confirmRotate()}
      />
      <ConfirmDeletion
        item={deleting}
        onClose={() => setDeleting(null)}
        title={() => t("webhooks.deleteTitle")}
        description={(endpoint) => t("webhooks.deleteBody", { url: endpoint.url })}
        confirmLabel={t("webhooks.delete")}
        remove={async (endpoint) => {
          await remove.mutateAsync({ id: endpoint.id });
          await utils.webhooks.list.invalidate();
        }}
        deleted={() => t("webhooks.deleted")}
      />
    </section>
  );
}
