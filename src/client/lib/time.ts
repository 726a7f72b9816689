/** Plain time units for client timers (business figures live in src/shared/constants.ts). */
export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
