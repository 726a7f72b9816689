/**
 * /clients (signed in; issue 28, decision 072): the current space's clients. Owner and Admins of a
 * team (and anyone in their personal space) see every detail, add, edit and delete them, with the
 * spec's rules (section 5) checked per field in the user's language; a Member reads a short note:
 * the server sends them no client details at all.
 */
import { Mail, MapPin, Pencil, Phone, Plus, StickyNote, Trash2, Users } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { CLIENT_LIMITS, clientInputSchema, type ClientDetails } from "../../shared/clients";
import { FieldError, TextField, inputClass } from "../components/auth/fields";
import { ErrorText, PageShell } from "../components/render/PageShell";
import { Spinner } from "../components/Spinner";
import { ConfirmDeletion, FormDialog } from "../components/ui/Dialog";
import { buttonClass, cardClass, labelClass } from "../components/ui/buttons";
import { fieldErrorsOf, serverFieldErrors, type FieldErrors } from "../lib/formErrors";
import { friendlyError } from "../lib/friendlyError";
import { translateMessage } from "../lib/validationMessages";
import { trpc } from "../trpc";

interface FormState {
  name: string;
  email: string;
  phone: string;
  address: string;
  notes: string;
}

const EMPTY: FormState = { name: "", email: "", phone: "", address: "", notes: "" };

function formOf(client: ClientDetails): FormState {
  return {
    name: client.name,
    email: client.email ?? "",
    phone: client.phone ?? "",
    address: client.address ?? "",
    notes: client.notes ?? "",
  };
}

function ClientForm({
  editing,
  onClose,
  onSaved,
}: {
  editing: { client: ClientDetails | null } | null;
  onClose(): void;
  onSaved(): Promise<void>;
}) {
  const { t } = useTranslation();
  const create = trpc.clients.create.useMutation();
  const update = trpc.clients.update.useMutation();
  const [form, setForm] = useState<FormState>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string>();
  const [openedFor, setOpenedFor] = useState<typeof editing>(null);
  // A new dialog starts from the client it edits (or empty), without stale errors.
  if (editing !== openedFor) {
    setOpenedFor(editing);
    setForm(editing?.client ? formOf(editing.client) : EMPTY);
    setErrors({});
    setFormError(undefined);
  }
  const translated = (fieldErrors: FieldErrors): FieldErrors =>
    Object.fromEntries(Object.entries(fieldErrors).map(([field, message]) => [field, message ? translateMessage(message, t) : message]));

  const submit = async () => {
    const parsed = clientInputSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(translated(fieldErrorsOf(parsed.error)));
      setFormError(undefined);
      return;
    }
    setErrors({});
    setFormError(undefined);
    try {
      const id = editing?.client?.id;
      const saved = id ? await update.mutateAsync({ id, ...parsed.data }) : await create.mutateAsync(parsed.data);
      toast.success(t(id ? "clients.saved" : "clients.added", { name: saved.name }));
      onClose();
      await onSaved();
    } catch (error) {
      const fields = serverFieldErrors(error);
      if (fields) setErrors(translated(fields));
      else setFormError(friendlyError(error, t));
    }
  };

  const field = (name: keyof FormState) => ({
    value: form[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  });
  const optional = (label: string) => `${label} (${t("clients.optional")})`;

  return (
    <FormDialog
      open={editing !== null}
      onOpenChange={(isOpen) => (isOpen ? undefined : onClose())}
      title={editing?.client ? t("clients.editTitle") : t("clients.addTitle")}
      description={t("clients.formDescription")}
      submitLabel={t("clients.save")}
      busy={create.isPending || update.isPending}
      onSubmit={() => void submit()}
    >
      <div className="-mx-1 max-h-[55vh] space-y-4 overflow-y-auto px-1" data-testid="client-form">
        <TextField label={t("clients.fields.name")} autoComplete="off" maxLength={200} required {...field("name")} />
        <TextField
          label={optional(t("clients.fields.email"))}
          type="email"
          inputMode="email"
          autoComplete="off"
          maxLength={400}
          {...field("email")}
        />
        <TextField
          label={optional(t("clients.fields.phone"))}
          type="tel"
          inputMode="tel"
          autoComplete="off"
          maxLength={60}
          hint={t("clients.phoneHint")}
          {...field("phone")}
        />
        <TextField label={optional(t("clients.fields.address"))} autoComplete="off" maxLength={400} {...field("address")} />
        <div>
          <label htmlFor="client-notes" className={labelClass}>
            {optional(t("clients.fields.notes"))}
          </label>
          <textarea
            id="client-notes"
            rows={3}
            className={inputClass}
            value={form.notes}
            maxLength={CLIENT_LIMITS.notesMax + 200}
            aria-invalid={errors.notes ? true : undefined}
            aria-describedby={errors.notes ? "client-notes-error" : "client-notes-hint"}
            onChange={(event) => setForm({ ...form, notes: event.target.value })}
          />
          {errors.notes ? null : (
            <p id="client-notes-hint" className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
              {t("clients.notesHint")}
            </p>
          )}
          <FieldError id="client-notes-error" message={errors.notes} />
        </div>
      </div>
      <ErrorText message={formError} />
    </FormDialog>
  );
}

function ClientCard({ client, onEdit, onDelete }: { client: ClientDetails; onEdit(): void; onDelete(): void }) {
  const { t } = useTranslation();
  const detail = "flex min-w-0 items-start gap-2 text-sm text-slate-600 dark:text-slate-300";
  const icon = "mt-0.5 size-4 shrink-0 text-slate-400 dark:text-slate-500";
  return (
    <li className={`${cardClass} flex flex-col gap-3 p-4 sm:flex-row sm:items-start`} data-testid="client-card">
      <div className="min-w-0 flex-1 space-y-1.5">
        <p className="font-semibold [overflow-wrap:anywhere]">{client.name}</p>
        {client.email ? (
          <p className={detail}>
            <Mail className={icon} aria-label={t("clients.fields.email")} />
            <a className="[overflow-wrap:anywhere] hover:underline" href={`mailto:${client.email}`}>
              {client.email}
            </a>
          </p>
        ) : null}
        {client.phone ? (
          <p className={detail}>
            <Phone className={icon} aria-label={t("clients.fields.phone")} />
            <a className="hover:underline" href={`tel:${client.phone.replace(/[^\d+]/g, "")}`}>
              {client.phone}
            </a>
          </p>
        ) : null}
        {client.address ? (
          <p className={detail}>
            <MapPin className={icon} aria-label={t("clients.fields.address")} />
            <span className="[overflow-wrap:anywhere]">{client.address}</span>
          </p>
        ) : null}
        {client.notes ? (
          <p className={detail}>
            <StickyNote className={icon} aria-label={t("clients.fields.notes")} />
            <span className="whitespace-pre-line [overflow-wrap:anywhere]">{client.notes}</span>
          </p>
        ) : null}
      </div>
      <div className="flex shrink-0 gap-2">
        <button type="button" className={`${buttonClass.secondary} py-2`} onClick={onEdit}>
          <Pencil className="size-4" aria-hidden="true" />
          {t("clients.edit")}
          <span className="sr-only"> {client.name}</span>
        </button>
        <button type="button" className={`${buttonClass.dangerOutline} py-2`} onClick={onDelete}>
          <Trash2 className="size-4" aria-hidden="true" />
          {t("clients.delete")}
          <span className="sr-only"> {client.name}</span>
        </button>
      </div>
    </li>
  );
}

export default function ClientsPage() {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const list = trpc.clients.list.useQuery(undefined, { staleTime: 0 });
  const teams = trpc.teams.mine.useQuery();
  const remove = trpc.clients.delete.useMutation();
  const [editing, setEditing] = useState<{ client: ClientDetails | null } | null>(null);
  const [deleting, setDeleting] = useState<ClientDetails | null>(null);

  const teamName = list.data?.teamId ? teams.data?.teams.find((team) => team.id === list.data.teamId)?.name : undefined;
  const intro = list.data
    ? list.data.teamId
      ? t(list.data.canManage ? "clients.introTeam" : "clients.introTeamMember", { team: teamName ?? "…" })
      : t("clients.introPersonal")
    : undefined;
  const refresh = () => utils.clients.invalidate();

  return (
    <PageShell
      title={t("clients.title")}
      intro={intro}
      actions={
        list.data?.canManage ? (
          <button type="button" className={buttonClass.primary} onClick={() => setEditing({ client: null })}>
            <Plus className="size-4" aria-hidden="true" />
            {t("clients.add")}
          </button>
        ) : null
      }
    >
      {list.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {list.error ? <ErrorText message={friendlyError(list.error, t)} /> : null}
      {list.data && !list.data.canManage ? (
        <div
          className={`${cardClass} flex items-start gap-3 p-4 text-sm text-slate-700 dark:text-slate-200`}
          data-testid="clients-member-note"
        >
          <Users className="mt-0.5 size-5 shrink-0 text-brand-600 dark:text-brand-100" aria-hidden="true" />
          <p>{t("clients.memberNote")}</p>
        </div>
      ) : null}
      {list.data?.canManage ? (
        list.data.clients.length === 0 ? (
          <p className={`${cardClass} p-6 text-center text-slate-600 dark:text-slate-300`}>{t("clients.empty")}</p>
        ) : (
          <section aria-labelledby="clients-count" className="space-y-3">
            <h2 id="clients-count" className="text-sm font-medium text-slate-600 dark:text-slate-400">
              {t("clients.count", { count: list.data.clients.length })}
            </h2>
            <ul className="space-y-3" data-testid="clients-list">
              {list.data.clients.map((client) => (
                <ClientCard key={client.id} client={client} onEdit={() => setEditing({ client })} onDelete={() => setDeleting(client)} />
              ))}
            </ul>
          </section>
        )
      ) : null}
      <ClientForm editing={editing} onClose={() => setEditing(null)} onSaved={refresh} />
      <ConfirmDeletion
        item={deleting}
        onClose={() => setDeleting(null)}
        title={(client) => t("clients.deleteTitle", { name: client.name })}
        description={() => t("clients.deleteBody")}
        confirmLabel={t("clients.delete")}
        remove={async (client) => {
          await remove.mutateAsync({ id: client.id });
          await refresh();
        }}
        deleted={(client) => t("clients.deleted", { name: client.name })}
      />
    </PageShell>
  );
}
