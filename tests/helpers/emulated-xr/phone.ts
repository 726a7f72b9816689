/**
 * Runs in the page before the app (bundled by tests/helpers/emulated-xr.ts, installed with addInitScript):
 * Meta's IWER emulates a WebXR device, here a phone-like one (one view, immersive-ar, hit-test and
 * dom-overlay), and its synthetic environment module (@iwer/sem) gives the hit test a room of known size
 * to meet: a floor and a back wall, as the planes a phone's AR would find. The test drives it through
 * window.__emulatedAr: where the phone is and where it looks, and the controller's trigger as a tap.
 */
import { SyntheticEnvironmentModule } from "@iwer/sem";
import { metaQuest3, XRDevice, type XRDeviceConfig } from "iwer";
import { ROOM, type EmulatedArOptions } from "./room";

function plane(uuid: string, label: string, position: object, orientation: object, offset: object, extent: object) {
  return { uuid, semanticLabel_META: label, locatable_META: { position, orientation }, bounded2D_META: { offset, extent } };
}

// A plane of @iwer/sem lies in its local x–z, facing its local −y: the floor is turned half a turn about x
// (facing up), the back wall a quarter turn back (facing the room, its local z going up).
const roomJson = {
  type: "room",
  version: 1,
  spatialEntities: [
    plane(
      "floor",
      "FLOOR",
      { x: 0, y: 0, z: 0 },
      { x: 1, y: 0, z: 0, w: 0 },
      { x: -ROOM.width / 2, y: -ROOM.depth / 2 },
      { width: ROOM.width, height: ROOM.depth },
    ),
    plane(
      "back-wall",
      "WALL_FACE",
      { x: 0, y: 0, z: -ROOM.depth / 2 },
      { x: -Math.SQRT1_2, y: 0, z: 0, w: Math.SQRT1_2 },
      { x: -ROOM.width / 2, y: 0 },
      { width: ROOM.width, height: ROOM.height },
    ),
  ],
};

declare global {
  interface Window {
    __emulatedArOptions?: EmulatedArOptions;
    __emulatedAr?: {
      device: XRDevice;
      /** Puts the phone at `from` looking at `to` (metres, the room's space), upright. */
      aim(from: { x: number; y: number; z: number }, to: { x: number; y: number; z: number }): void;
      /** Presses or releases the controller's trigger: a `select` when pressed. */
      trigger(pressed: boolean): void;
    };
  }
}

// This machine draws the room and the session's layer in software (SwiftShader), a frame at a time:
// ten frames a second are plenty to aim and tap, and leave the CPU to the tests running beside this one.
// As the browser's own frames do, every callback asked for before a frame runs in that frame, in order
// (the session's and the test's alike), and one asked for during a frame runs in the next.
const FRAME_MS = 100;
const nativeFrame = window.requestAnimationFrame.bind(window);
let queue: Array<{ id: number; callback: FrameRequestCallback }> = [];
let frameScheduled = false;
let lastFrameAt = 0;
let nextId = 1;
function scheduleFrame(): void {
  if (frameScheduled) return;
  frameScheduled = true;
  setTimeout(
    () =>
      nativeFrame((time) => {
        frameScheduled = false;
        lastFrameAt = performance.now();
        const batch = queue;
        queue = [];
        for (const { callback } of batch) callback(time);
        if (queue.length > 0) scheduleFrame();
      }),
    Math.max(0, lastFrameAt + FRAME_MS - performance.now()),
  );
}
window.requestAnimationFrame = (callback: FrameRequestCallback): number => {
  const id = nextId++;
  queue.push({ id, callback });
  scheduleFrame();
  return id;
};
window.cancelAnimationFrame = (id: number): void => {
  queue = queue.filter((entry) => entry.id !== id);
};

const options: EmulatedArOptions = window.__emulatedArOptions ?? { hitTest: true, room: true };
const phone: XRDeviceConfig = {
  ...metaQuest3,
  name: "Emulated AR phone",
  supportedSessionModes: ["inline", "immersive-ar"],
  supportedFeatures: [...metaQuest3.supportedFeatures.filter((feature) => options.hitTest || feature !== "hit-test"), "dom-overlay"],
  visibilityMask: undefined,
};
const device = new XRDevice(phone, { stereoEnabled: false, visibilityMask: null });
device.installRuntime({ forceInstall: true });
if (options.room) {
  device.installSEM(SyntheticEnvironmentModule);
  device.sem!.loadEnvironment(roomJson);
  // The planes drawn in the emulated camera's picture, so that screenshots show the room.
  device.sem!.planesVisible = true;
}

window.__emulatedAr = {
  device,
  aim(from, to) {
    const d = { x: to.x - from.x, y: to.y - from.y, z: to.z - from.z };
    const length = Math.hypot(d.x, d.y, d.z);
    // Yaw about y (the view looks down −z), then pitch about x: no roll.
    const yaw = Math.atan2(-d.x, -d.z);
    const pitch = Math.asin(d.y / length);
    const [sy, cy, sp, cp] = [Math.sin(yaw / 2), Math.cos(yaw / 2), Math.sin(pitch / 2), Math.cos(pitch / 2)];
    device.position.set(from.x, from.y, from.z);
    device.quaternion.set(cy * sp, sy * cp, -sy * sp, cy * cp);
  },
  trigger(pressed) {
    device.controllers.right!.updateButtonValue("trigger", pressed ? 1 : 0);
  },
};
