/** The <meta> tags (Open Graph and Twitter) of a page the server sent, by property or name, decoded. */
export function metaTags(html: string): Map<string, string> {
  const decode = (text: string) =>
    text.replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
  const tags = new Map<string, string>();
  for (const match of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)" \/>/g)) tags.set(match[1]!, decode(match[2]!));
  return tags;
}
