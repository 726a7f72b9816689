/** A landing section's heading: a small line above, the title, a short text under it. */
export function SectionHeading({
  id,
  eyebrow,
  title,
  body,
  align = "center",
}: {
  id: string;
  eyebrow: string;
  title: string;
  body?: string;
  align?: "center" | "left";
}) {
  const centered = align === "center";
  return (
    <div className={centered ? "mx-auto max-w-2xl text-center" : "max-w-xl"}>
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-600 dark:text-brand-100">{eyebrow}</p>
      <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight text-balance">
        {title}
      </h2>
      {body ? <p className="mt-3 text-slate-600 dark:text-slate-300">{body}</p> : null}
    </div>
  );
}
