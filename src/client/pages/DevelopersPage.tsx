/**
 * /developers (signed in; issue 31, decisions 094 and 097): what the REST API is for and where its
 * OpenAPI document is, the API keys of a space (the personal one, or a team where the user is Owner
 * or Admin: a Member sees only their personal keys), and below them the parts in ./developers: usage
 * by day, curl commands against this server, the API reference. A new key's token is shown once, in a
 * dialog: it comes from the vanilla tRPC client (never React Query's cache) and lives in that dialog's
 * state only, forgotten when it closes.
 */
import * as Dialog from "@radix-ui/react-dialog";
import { Check, Copy, KeyRound, Plus, X } from "lucide-react";
import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { API_BASE, API_KEYS, API_SCOPES, createApiKeyInputSchema, type ApiKeyView, type ApiScope } from "../../shared/api";
import { roleMay } from "../../shared/teams";
import { FieldError, TextField } from "../components/auth/fields";
import { ErrorText, PageShell } from "../components/render/PageShell";
import { Spinner } from "../components/Spinner";
import { ConfirmDialog, FormDialog } from "../components/ui/Dialog";
import { buttonClass, cardClass, labelClass, linkClass, selectClass } from "../components/ui/buttons";
import { fieldErrorsOf, serverFieldErrors, type FieldErrors } from "../lib/formErrors";
import { friendlyError } from "../lib/friendlyError";
import { translateMessage } from "../lib/validationMessages";
import { trpc } from "../trpc";
import { WebhooksPanel } from "./developers/WebhooksPanel";
import { ApiReference } from "./developers/ApiReference";
import { copyOrSelect } from "./developers/copy";
import { CurlExamples } from "./developers/CurlExamples";
import { UsageByDay } from "./developers/UsageByDay";

const EXPIRY_CHOICES = [null, 7, 30, 90, 365] as const;

function useDates() {
  const { i18n } = useTranslation();
  const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium" });
  const moment = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });
  return { date: (ms: number) => day.format(new Date(ms)), dateTime: (ms: number) => moment.format(new Date(ms)) };
}

function CreateKeyDialog({
  open,
  teamId,
  onClose,
  onCreated,
}: {
  open: boolean;
  teamId: string | null;
  onClose(): void;
  onCreated(created: { name: string; token: string }): void;
}) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<ApiScope[]>([]);
  const [expiry, setExpiry] = useState<number | null>(90);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [wasOpen, setWasOpen] = useState(false);
  const scopesErrorId = useId();
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setName("");
      setScopes([]);
      setExpiry(90);
      setErrors({});
      setFormError(undefined);
    }
  }
  const translated = (fieldErrors: FieldErrors): FieldErrors =>
    Object.fromEntries(Object.entries(fieldErrors).map(([field, message]) => [field, message ? translateMessage(message, t) : message]));

  const submit = async () => {
    const parsed = createApiKeyInputSchema.safeParse({ name, scopes, expiresInDays: expiry, teamId });
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
      const { key, token } = await utils.client.developers.createKey.mutate(parsed.data);
      onCreated({ name: key.name, token });
    } catch (error) {
      const fields = serverFieldErrors(error);
      if (fields) setErrors(translated(fields));
      else setFormError(friendlyError(error, t));
    } finally {
      setBusy(false);
    }
  };

  const toggle = (scope: ApiScope, on: boolean) =>
    setScopes((chosen) => (on ? API_SCOPES.filter((s) => s === scope || chosen.includes(s)) : chosen.filter((s) => s !== scope)));

  return (
    <FormDialog
      open={open}
      onOpenChange={(isOpen) => (isOpen ? undefined : onClose())}
      title={t("developers.createTitle")}
      description={t("developers.createDescription")}
      submitLabel={t("developers.createSubmit")}
      busy={busy}
      onSubmit={() => void submit()}
    >
      <div className="-mx-1 max-h-[55vh] space-y-4 overflow-y-auto px-1" data-testid="create-key-form">
        <TextField
          label={t("developers.name")}
          autoComplete="off"
          maxLength={API_KEYS.nameMax + 20}
          hint={t("developers.nameHint", { max: API_KEYS.nameMax })}
          value={name}
          error={errors.name}
          onChange={(event) => setName(event.target.value)}
        />
        <fieldset aria-describedby={errors.scopes ? scopesErrorId : undefined}>
          <legend className={labelClass}>{t("developers.scopesLabel")}</legend>
          <FieldError id={scopesErrorId} message={errors.scopes} />
          <div className="mt-1 space-y-2">
            {API_SCOPES.map((scope) => (
              <label
                key={scope}
                className="flex cursor-pointer items-start gap-3 rounded-md p-1.5 hover:bg-slate-50 dark:hover:bg-slate-800/60"
              >
                <input
                  type="checkbox"
                  className="mt-1 size-4 shrink-0 accent-brand-600"
                  checked={scopes.includes(scope)}
                  onChange={(event) => toggle(scope, event.target.checked)}
                />
                <span className="min-w-0 text-sm">
                  <code className="font-mono font-semibold">{scope}</code>
                  <span className="block text-slate-600 dark:text-slate-400">{t(`developers.scopes.${scope.replace(":", "_")}`)}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <label htmlFor="api-key-expiry" className={labelClass}>
            {t("developers.expiryLabel")}
          </label>
          <select
            id="api-key-expiry"
            className={selectClass}
            value={expiry === null ? "never" : String(expiry)}
            onChange={(event) => setExpiry(event.target.value === "never" ? null : Number(event.target.value))}
          >
            {EXPIRY_CHOICES.map((days) => (
              <option key={days ?? "never"} value={days === null ? "never" : String(days)}>
                {days === null ? t("developers.expiry.never") : t("developers.expiry.days", { count: days })}
              </option>
            ))}
          </select>
          <FieldError id="api-key-expiry-error" message={errors.expiresInDays} />
        </div>
      </div>
      <ErrorText message={formError} />
    </FormDialog>
  );
}

/** The new key's token, shown once. */
function TokenDialog({ created, onClose }: { created: { name: string; token: string } | null; onClose(): void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!created) return;
    setCopied(await copyOrSelect(created.token, input.current, t("developers.copyFailed")));
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
          data-testid="new-key-dialog"
        >
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-semibold [overflow-wrap:anywhere]">{t("developers.tokenTitle")}</Dialog.Title>
            <Dialog.Close className={buttonClass.icon} aria-label={t("common.close")}>
              <X className="size-4" aria-hidden="true" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t("developers.tokenBody")}</Dialog.Description>
          <p className="mt-4 text-sm font-medium [overflow-wrap:anywhere]">{created?.name}</p>
          <label htmlFor="new-api-key" className="sr-only">
            {t("developers.tokenLabel")}
          </label>
          <div className="mt-2 flex flex-col gap-2 sm:flex-row">
            <input
              ref={input}
              id="new-api-key"
              data-testid="new-key-token"
              readOnly
              value={created?.token ?? ""}
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
              {copied ? t("developers.copied") : t("developers.copy")}
            </button>
          </div>
          <div className="mt-6 flex justify-end">
            <Dialog.Close className={buttonClass.secondary}>{t("developers.done")}</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function KeyCard({ apiKey, now, onRevoke }: { apiKey: ApiKeyView; now: number; onRevoke(): void }) {
  const { t } = useTranslation();
  const { date, dateTime } = useDates();
  const expired = apiKey.expiresAt !== null && apiKey.expiresAt <= now;
  const stopped = apiKey.revokedAt !== null || expired;
  const detail = "text-sm text-slate-600 dark:text-slate-400";
  return (
    <li
      className={`${cardClass} flex flex-col gap-3 p-4 sm:flex-row sm:items-start ${stopped ? "border-dashed" : ""}`}
      data-testid="api-key"
      data-revoked={apiKey.revokedAt !== null || undefined}
    >
      <div className="min-w-0 flex-1 space-y-1.5">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-semibold [overflow-wrap:anywhere]">{apiKey.name}</span>
          {apiKey.revokedAt !== null ? (
            <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800 dark:bg-red-950/60 dark:text-red-200">
              {t("developers.revoked")}
            </span>
          ) : null}
        </p>
        <p className={detail}>
          <span className="sr-only">{t("developers.prefix")}: </span>
          <code className="font-mono text-slate-800 dark:text-slate-200" data-testid="api-key-prefix">
            {apiKey.prefix}…
          </code>
        </p>
        <p className="flex flex-wrap gap-1.5">
          <span className="sr-only">{t("developers.scopesShort")}: </span>
          {apiKey.scopes.map((scope) => (
            <code
              key={scope}
              className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-200"
            >
              {scope}
            </code>
          ))}
        </p>
        <p className={`${detail} flex flex-wrap gap-x-3 gap-y-0.5`}>
          <span>{t("developers.createdAt", { date: date(apiKey.createdAt) })}</span>
          <span>
            {apiKey.lastUsedAt === null ? t("developers.neverUsed") : t("developers.lastUsed", { date: dateTime(apiKey.lastUsedAt) })}
          </span>
          {apiKey.revokedAt !== null ? (
            <span>{t("developers.revokedAt", { date: date(apiKey.revokedAt) })}</span>
          ) : apiKey.expiresAt === null ? (
            <span>{t("developers.noExpiry")}</span>
          ) : (
            <span>{t(expired ? "developers.expired" : "developers.expires", { date: date(apiKey.expiresAt) })}</span>
          )}
        </p>
      </div>
      {apiKey.revokedAt === null ? (
        <button type="button" className={`${buttonClass.dangerOutline} shrink-0 py-2`} onClick={onRevoke}>
          {t("developers.revoke")}
          <span className="sr-only"> {apiKey.name}</span>
        </button>
      ) : null}
    </li>
  );
}

export default function DevelopersPage() {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const mine = trpc.teams.mine.useQuery();
  const [chosen, setChosen] = useState<string | null | undefined>(undefined);
  const managed = (mine.data?.teams ?? []).filter((team) => roleMay(team.role, "manageDevelopers"));
  // The space in use when the user manages its keys, else the personal one, until they choose.
  const teamId = chosen !== undefined ? chosen : (managed.find((team) => team.id === mine.data?.current)?.id ?? null);
  const team = managed.find((candidate) => candidate.id === teamId);
  const keys = trpc.developers.keys.useQuery({ teamId }, { enabled: mine.data !== undefined, staleTime: 0 });
  const revoke = trpc.developers.revokeKey.useMutation();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);
  const [now] = useState(() => Date.now());
  const docsUrl = `${API_BASE}/openapi.json`;
  const [docsBefore, docsAfter] = t("developers.docs", { url: "\u0000" }).split("\u0000");

  const refresh = () => utils.developers.keys.invalidate();

  const confirmRevoke = async () => {
    if (!revoking) return;
    try {
      await revoke.mutateAsync({ id: revoking.id });
      toast.success(t("developers.revokedToast", { name: revoking.name }));
      setRevoking(null);
      await refresh();
    } catch (error) {
      toast.error(friendlyError(error, t));
    }
  };

  return (
    <PageShell
      title={t("developers.title")}
      intro={
        <>
          {t("developers.intro")}{" "}
          <span className="mt-1 block text-sm">
            {docsBefore}
            <a className={`${linkClass} font-mono`} href={docsUrl} target="_blank" rel="noreferrer">
              {docsUrl}
            </a>
            {docsAfter}
          </span>
        </>
      }
    >
      <section className="space-y-4" aria-labelledby="developers-keys">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div className="min-w-0">
            <h2 id="developers-keys" className="flex items-center gap-2 text-xl font-semibold">
              <KeyRound className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />
              {t("developers.keysTitle")}
            </h2>
            {mine.data ? (
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
                {team ? t("developers.keysIntroTeam", { team: team.name }) : t("developers.keysIntroPersonal")}
              </p>
            ) : null}
            {managed.length > 0 ? (
              <div className="mt-3 max-w-xs">
                <label htmlFor="developers-space" className={labelClass}>
                  {t("developers.keysFor")}
                </label>
                <select
                  id="developers-space"
                  className={selectClass}
                  value={teamId ?? ""}
                  onChange={(event) => setChosen(event.target.value === "" ? null : event.target.value)}
                >
                  <option value="">{t("developers.personal")}</option>
                  {managed.map((option) => (
                    <option key={option.id} value={option.id}>
                      {option.name}
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
          </div>
          <button type="button" className={buttonClass.primary} onClick={() => setCreating(true)} disabled={!keys.data}>
            <Plus className="size-4" aria-hidden="true" />
            {t("developers.create")}
          </button>
        </div>
        {mine.isLoading || keys.isLoading ? <Spinner label={t("common.loading")} /> : null}
        {mine.error || keys.error ? <ErrorText message={friendlyError(mine.error ?? keys.error, t)} /> : null}
        {keys.data ? (
          keys.data.length === 0 ? (
            <p className={`${cardClass} p-6 text-center text-slate-600 dark:text-slate-300`}>{t("developers.empty")}</p>
          ) : (
            <>
              <p className="text-sm font-medium text-slate-600 dark:text-slate-400">{t("developers.count", { count: keys.data.length })}</p>
              <ul className="space-y-3" data-testid="api-keys">
                {keys.data.map((apiKey) => (
                  <KeyCard key={apiKey.id} apiKey={apiKey} now={now} onRevoke={() => setRevoking(apiKey)} />
                ))}
              </ul>
            </>
          )
        ) : null}
      </section>

      <WebhooksPanel teamId={teamId} ready={mine.data !== undefined} />
      <UsageByDay teamId={teamId} enabled={mine.data !== undefined} />
      <CurlExamples />
      <ApiReference />

      <CreateKeyDialog
        open={creating}
        teamId={teamId}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setCreated(key);
          toast.success(t("developers.created", { name: key.name }));
          void refresh();
        }}
      />
      <TokenDialog created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(isOpen) => (isOpen ? undefined : setRevoking(null))}
        title={t("developers.revokeTitle", { name: revoking?.name ?? "" })}
        description={t("developers.revokeBody")}
        confirmLabel={t("developers.revoke")}
        busy={revoke.isPending}
        onConfirm={() => void confirmRevoke()}
      />
    </PageShell>
  );
}
