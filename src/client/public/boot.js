// Starts the pre-rendered landing page's code once the page has been painted (decision 042): the
// HTML reads and its links work without it, so the first paint does not share the network (or the
// main thread) with scripts. scripts/prerender.ts lists the scripts on this element: the entry,
// and what the page's first load needs, fetched at once rather than one import after another. An
// external file: the CSP forbids inline scripts.
(function () {
  var me = document.currentScript;
  var entry = me.getAttribute("data-entry");
  var preload = (me.getAttribute("data-preload") || "").split(" ").filter(Boolean);
  var root = document.getElementById("root");
  var started = false;

  function start() {
    if (started) return;
    started = true;
    // The entry first: the largest file.
    var script = document.createElement("script");
    script.type = "module";
    script.crossOrigin = "";
    script.src = entry;
    document.head.appendChild(script);
    // Plain preloads (a module preload costs the main thread a compile per file); the module loader
    // takes them from the cache, and Vite's loader sees them on the page and adds no others.
    preload.forEach(function (href) {
      var link = document.createElement("link");
      link.rel = "preload";
      link.as = "script";
      link.crossOrigin = "";
      link.href = href;
      document.head.appendChild(link);
    });
  }

  // After the first paint, as the browser reports it (not a timer or a frame callback: a test's
  // paused clock would hold those). A tab opened in the background paints nothing: it starts when loaded.
  var types = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes;
  if (types && types.indexOf("paint") >= 0) {
    new PerformanceObserver(function (list, observer) {
      observer.disconnect();
      start();
    }).observe({ type: "paint", buffered: true });
  } else {
    start();
  }
  window.addEventListener("load", start);

  // A button pressed before the app has taken over the page is pressed again once it has (the app
  // says so with this event, from App's first effect): Watch Demo then opens instead of doing nothing.
  var pressed = [];
  function hold(event) {
    var button = event.target instanceof Element ? event.target.closest("button") : null;
    if (!button || !root.contains(button)) return;
    event.preventDefault();
    event.stopPropagation();
    if (pressed.indexOf(button) < 0) pressed.push(button);
  }
  document.addEventListener("click", hold, true);
  document.addEventListener(
    "roomcanvas:hydrated",
    function () {
      document.removeEventListener("click", hold, true);
      pressed.forEach(function (button) {
        if (button.isConnected) button.click();
      });
      pressed = [];
    },
    { once: true },
  );
})();
