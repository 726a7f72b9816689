// Runs before first paint so the page never flashes the wrong theme.
// The key must equal STORAGE_KEYS.theme in src/shared/constants.ts (a test checks it).
(function () {
  var stored = null;
  try {
    stored = window.localStorage.getItem("roomcanvas.theme");
  } catch {
    stored = null;
  }
  var dark = stored === "dark" || (stored !== "light" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.classList.toggle("dark", dark);
})();
