/**
 * Marking AI pictures: an XMP packet with IPTC's DigitalSourceType
 * (compositeWithTrainedAlgorithmicMedia: a photo edited with a trained model) and a description
 * naming the engine, written into the downloaded file with sharp. Pictures of the Preview engine
 * carry no AI claim.
 */
import sharp from "sharp";

export const DIGITAL_SOURCE_TYPE_EDITED_WITH_AI = "http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia";

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

/** The XMP packet of a photo edited with AI. */
export function aiEditedXmp(description: string): string {
  return describedXmp(description, DIGITAL_SOURCE_TYPE_EDITED_WITH_AI);
}

/** An XMP packet with a description, and a DigitalSourceType only when one is given (no AI claim without it). */
export function describedXmp(description: string, digitalSourceType?: string): string {
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about="" xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    digitalSourceType ? `<Iptc4xmpExt:DigitalSourceType>${digitalSourceType}</Iptc4xmpExt:DigitalSourceType>` : "",
    `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(description)}</rdf:li></rdf:Alt></dc:description>`,
    "</rdf:Description>",
    "</rdf:RDF>",
    "</x:xmpmeta>",
    '<?xpacket end="w"?>',
  ].join("");
}

/** The picture with the AI packet written in, in its own format (JPEG at quality 92, PNG or WebP). */
export async function withAiProvenance(data: Buffer, description: string): Promise<Buffer> {
  const image = sharp(data).withXmp(aiEditedXmp(description));
  const { format } = await sharp(data).metadata();
  if (format === "png") return image.png().toBuffer();
  if (format === "webp") return image.webp({ quality: 92 }).toBuffer();
  return image.jpeg({ quality: 92 }).toBuffer();
}
