/**
 * Live render events: every change of a job is stored as an event (in the same transaction as the
 * change) and then published on the bus; open streams get it at once, and a reconnecting browser
 * asks for what it missed after its last event id. The fan-out serves render.events to browsers.
 * With several instances on PostgreSQL, the relay brings every instance the events written by the
 * others (NOTIFY, then the table: decision 082).
 *
 * The rest of the render module imports this file only (lint: render-live-behind-its-index). Live
 * sits below the other parts: it imports none of them.
 */
export { EVENTS_PATH, EventFanOut } from "./event-fan-out";
export {
  eventsAfterForAll,
  forgetEventsBefore,
  recordRenderEvent,
  RenderEventBus,
  storedEventsAfter,
  type StoredRenderEvent,
} from "./events";
export { InProcessRelay, PostgresRelay, type EventRelay } from "./relay";
