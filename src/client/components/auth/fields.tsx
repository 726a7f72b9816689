/** Form pieces shared by the account forms: labelled inputs with their error, and buttons. */
import { Eye, EyeOff } from "lucide-react";
import { useId, useState, type InputHTMLAttributes, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

export const inputClass =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-sm placeholder:text-slate-400 " +
  "focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 disabled:cursor-not-allowed disabled:opacity-60 " +
  "aria-[invalid=true]:border-red-500 aria-[invalid=true]:focus:ring-red-500/30 sm:text-sm " +
  "dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100 dark:placeholder:text-slate-500 dark:aria-[invalid=true]:border-red-400";

export const primaryButtonClass =
  "inline-flex w-full items-center justify-center gap-2 rounded-md bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm " +
  "hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60 dark:bg-brand-600";

export const secondaryButtonClass =
  "inline-flex w-full items-center justify-center gap-2 rounded-md border border-slate-300 bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 " +
  "hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800";

export const linkButtonClass =
  "text-sm font-medium text-brand-600 hover:text-brand-700 hover:underline disabled:opacity-60 dark:text-brand-100 dark:hover:text-white";

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1.5 text-sm text-red-600 dark:text-red-400">
      {message}
    </p>
  );
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "aria-invalid" | "aria-describedby">;

interface TextFieldProps extends InputProps {
  label: string;
  /** Already translated; the field is marked invalid and described by it. */
  error?: string | undefined;
  hint?: ReactNode;
  /** Extra content inside the input's box, on the right (the show-password button). */
  trailing?: ReactNode;
}

export function TextField({ label, error, hint, trailing, className, ...input }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={trailing ? `${inputClass} pr-10` : inputClass}
          {...input}
        />
        {trailing ? <div className="absolute inset-y-0 right-0 flex items-center pr-1">{trailing}</div> : null}
      </div>
      <FieldError id={errorId} message={error} />
      {hint ? (
        <div id={hintId} className="mt-1.5 text-sm text-slate-500 dark:text-slate-400">
          {hint}
        </div>
      ) : null}
    </div>
  );
}

/** A password input with a show/hide button. */
export function PasswordField(props: Omit<TextFieldProps, "type" | "trailing">) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const label = visible ? t("auth.hidePassword") : t("auth.showPassword");
  return (
    <TextField
      {...props}
      type={visible ? "text" : "password"}
      trailing={
        <button
          type="button"
          onClick={() => setVisible((shown) => !shown)}
          aria-label={label}
          title={label}
          aria-pressed={visible}
          disabled={props.disabled}
          className="inline-flex size-8 items-center justify-center rounded text-slate-500 hover:text-slate-800 disabled:opacity-60 dark:text-slate-400 dark:hover:text-slate-100"
        >
          {visible ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
        </button>
      }
    />
  );
}

/** The e-mail input every account form uses: label, keyboard, autofill and placeholder. */
export function EmailField(props: Omit<TextFieldProps, "label" | "type" | "autoComplete" | "inputMode" | "placeholder" | "trailing">) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t("auth.email")}
      type="email"
      autoComplete="email"
      inputMode="email"
      placeholder={t("auth.emailPlaceholder")}
      {...props}
    />
  );
}

/** The submit button of a form; shows the busy label (and a small spinner) while the form works. */
export function SubmitButton({
  busy,
  label,
  busyLabel,
  disabled,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  disabled?: boolean;
}) {
  return (
    <button type="submit" disabled={busy || disabled} aria-busy={busy || undefined} className={primaryButtonClass}>
      {busy ? <span className="size-4 animate-spin rounded-full border-2 border-white border-t-transparent" aria-hidden="true" /> : null}
      {busy ? busyLabel : label}
    </button>
  );
}
