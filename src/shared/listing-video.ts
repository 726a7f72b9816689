/**
 * A project's listing video (issue 33): its pictures, each a before/after wipe, the studio's brand and
 * the disclosure on altered pictures; 16:9 or 9:16, 3 to 60 seconds, silent. Limits and the request's
 * checks, shared by the page and the server.
 */
import { z } from "zod";
import { MESSAGES } from "./messages";

export const LISTING_VIDEO = {
  /** Pictures one video may show. */
  picturesMax: 20,
  secondsMin: 3,
  secondsMax: 60,
  /** Each picture is on screen at least this long: shorter, its wipe cannot be followed. */
  secondsPerPictureMin: 1.5,
  framesPerSecond: 25,
  /** Largest stored video, in bytes: ffmpeg writes no more, and a larger one is not kept (videoTooLarge). */
  bytesMax: 200 * 1024 * 1024,
} as const;

export const VIDEO_FORMATS = {
  landscape: { width: 1920, height: 1080 },
  portrait: { width: 1080, height: 1920 },
} as const;
export type VideoFormat = keyof typeof VIDEO_FORMATS;

export const listingVideoRequestSchema = z
  .object({
    projectId: z.string().min(1).max(64),
    /** The renders to show, in order (finished renders of the project). */
    jobIds: z
      .array(z.string().min(1).max(64))
      .min(1, { error: MESSAGES.videoPicturesRequired })
      .max(LISTING_VIDEO.picturesMax, { error: MESSAGES.videoTooManyPictures }),
    format: z.enum(["landscape", "portrait"], { error: MESSAGES.videoFormatInvalid }),
    seconds: z
      .number({ error: MESSAGES.videoLengthInvalid })
      .int({ error: MESSAGES.videoLengthInvalid })
      .min(LISTING_VIDEO.secondsMin, { error: MESSAGES.videoLengthInvalid })
      .max(LISTING_VIDEO.secondsMax, { error: MESSAGES.videoLengthInvalid }),
  })
  .refine((input) => new Set(input.jobIds).size === input.jobIds.length, { error: MESSAGES.videoPictureRepeated, path: ["jobIds"] })
  .refine((input) => input.seconds / input.jobIds.length >= LISTING_VIDEO.secondsPerPictureMin, {
    error: MESSAGES.videoTooShortForPictures,
    path: ["seconds"],
  });
export type ListingVideoRequest = z.infer<typeof listingVideoRequestSchema>;
