/** Small formatting helpers of the render flow. */

/** "12 s", "1:05", "1:02:03" — an elapsed time, without locale-specific words. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, "0")}:${String(seconds).padStart(2, "0")}`;
  if (minutes > 0) return `${minutes}:${String(seconds).padStart(2, "0")}`;
  return `${seconds} s`;
}

/**
 * A measured duration in seconds as the language writes numbers: one decimal under 10 s ("0.6",
 * Spanish and French "0,6"), whole seconds above. Never "0" for something that took time: a
 * render that finished in 0.6 s did not take 0 s.
 */
export function formatSeconds(ms: number, language: string | undefined): string {
  const seconds = Math.max(0, ms) / 1000;
  const digits = seconds < 10 ? 1 : 0;
  const shown = ms > 0 ? Math.max(seconds, 10 ** -digits) : 0;
  return formatDecimal(shown, digits, language);
}

/**
 * "Label: value" as the language writes it: French typography puts a narrow no-break space before
 * the colon ("Durée : 0,6 s"), which also keeps the colon from starting a line. Every label and value
 * the interface joins goes through here, so no text types that space by hand (issue 27).
 */
export function labelled(label: string, value: string, language: string | undefined): string {
  return `${label}${colonOf(language)} ${value}`;
}

/** ":" — with French's narrow no-break space before it. */
export function colonOf(language: string | undefined): string {
  return language?.toLowerCase().startsWith("fr") ? "\u202f:" : ":";
}

/** A number with a fixed count of decimals, in the language's way ("4.52", "4,52"). */
export function formatDecimal(value: number, digits: number, language: string | undefined): string {
  return new Intl.NumberFormat(language, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

export function formatBytes(bytes: number, language: string | undefined): string {
  const units = ["B", "KB", "MB", "GB", "TB"] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}

/**
 * An amount in the currency's smallest unit as Stripe counts it ("$9.00" for 900 usd, "¥900" for
 * 900 jpy); a code Intl does not know is shown as it came ("900 XYZ") rather than throwing.
 */
export function formatMoney(minorUnits: number, currency: string, language: string | undefined, fractionDigits?: number): string {
  const code = currency.toUpperCase();
  try {
    const digits = new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
    return new Intl.NumberFormat(language, {
      style: "currency",
      currency: code,
      ...(fractionDigits === undefined ? {} : { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits }),
    }).format(minorUnits / 10 ** digits);
  } catch {
    return `${minorUnits} ${code}`;
  }
}

/** A link the server gave (absolute or a path), as a full URL of this site. */
export function absoluteUrl(link: string): string {
  return new URL(link, window.location.origin).href;
}

/** Copies text; falls back to a selection copy where the Clipboard API is missing (plain HTTP on a LAN). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Fall through to the old way.
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } catch {
    copied = false;
  }
  area.remove();
  return copied;
}
