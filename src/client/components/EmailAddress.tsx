/**
 * An e-mail address that wraps where a reader expects it to (after the "@", before a dot) instead of
 * in the middle of a word when its column is narrow (the help drawer's tiles on a phone). A part
 * still too long for its line breaks as a last resort (overflow-wrap: break-word).
 */
import { Fragment } from "react";

export function EmailAddress({ address }: { address: string }) {
  const parts = address.split(/(?<=@)|(?=\.)/);
  return (
    <span className="[overflow-wrap:break-word]" data-testid="email-address">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
