/// <reference types="webxr" />
/**
 * WebXR feature detection (decision 092): whether this device can start an `immersive-ar` session. Only
 * then does the app offer to measure with AR; a browser without navigator.xr, or one that answers false
 * (most desktops, iPhones' Safari today), never sees the option. Asked once per page load.
 */
import { useEffect, useState } from "react";

let asked: Promise<boolean> | null = null;

export function immersiveArSupported(): Promise<boolean> {
  asked ??= (async () => {
    try {
      return (await navigator.xr?.isSessionSupported("immersive-ar")) === true;
    } catch {
      // A permissions policy that forbids XR rejects: not supported here.
      return false;
    }
  })();
  return asked;
}

/** True once the device said it can start an immersive AR session; false until then and otherwise. */
export function useImmersiveArSupport(): boolean {
  const [supported, setSupported] = useState(false);
  useEffect(() => {
    let live = true;
    void immersiveArSupported().then((answer) => {
      if (live) setSupported(answer);
    });
    return () => {
      live = false;
    };
  }, []);
  return supported;
}

/** The features the AR measure asks for: hit-test is required; a DOM overlay carries the buttons and the length. */
export function arSessionInit(overlayRoot: Element): XRSessionInit {
  return { requiredFeatures: ["hit-test"], optionalFeatures: ["dom-overlay"], domOverlay: { root: overlayRoot } };
}
